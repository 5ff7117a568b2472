/**
 * What a demo record's seed makes of its run: the vessel and the stage a cath lab names its series
 * by ("LAD pre-PCI"), and whether its pullback shows a deployed stent. A post-PCI run is made after
 * a stent was implanted, so its frames show one (issue 28); a pre-PCI run shows the native vessel.
 *
 * Derived from the seed rather than drawn, so that the seeded patients and frames stay as they were.
 */
import type { RecordRow } from '../db/records.ts';

const VESSELS = ['LAD', 'LCx', 'RCA'] as const;

/**
 * The imaging version of demo frames that show the stent of a post-PCI run. Frames, contours and
 * previews are stored, sent and cached (immutably) under the record's imaging version, so stented
 * frames get a version of their own: imaging generated before the stent existed (under 'v1') is
 * never served beside stented frames or borders read from them. Migration 0014 moves the post-PCI
 * demo records seeded before onto this version.
 */
export const STENTED_DEMO_IMAGING_VERSION = 'v2-stent';

export function isPostPciDemoSeed(demoSeed: number): boolean {
  return Math.floor(demoSeed / VESSELS.length) % 2 === 1;
}

/** The seed, series description and imaging version a demo record is seeded with. */
export function demoRun(demoSeed: number) {
  const vessel = VESSELS[demoSeed % VESSELS.length]!;
  const postPci = isPostPciDemoSeed(demoSeed);
  return {
    demoSeed,
    seriesDescription: `${vessel} ${postPci ? 'post-PCI' : 'pre-PCI'}`,
    ...(postPci ? { imagingVersion: STENTED_DEMO_IMAGING_VERSION } : {}),
  };
}

/**
 * Whether a record's generated frames show a deployed stent: a post-PCI demo run on the stented
 * imaging version. Records on 'v1' (imports, test rows, anything seeded before) keep the frames
 * they always had.
 */
export function demoShowsStent(record: Pick<RecordRow, 'imagingSource' | 'demoSeed' | 'imagingVersion'>): boolean {
  return record.imagingSource === 'demo' && record.demoSeed !== null && isPostPciDemoSeed(record.demoSeed) && record.imagingVersion === STENTED_DEMO_IMAGING_VERSION;
}
