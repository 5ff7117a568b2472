/**
 * The demo generator's description of a record's pullback: what every demo chunk, preview and
 * border check is rendered from, so that they all agree on one record's frames.
 */
import { createPullbackModel, type PullbackModel, type PullbackModelOptions } from '../../domain/synthetic/pullback-model.ts';
import type { RecordRow } from '../db/records.ts';
import { demoShowsStent } from '../seed/demo-run.ts';

export function modelOptionsOf(record: RecordRow): PullbackModelOptions {
  return {
    seed: record.demoSeed ?? seedFromId(record.id),
    frameCount: record.bmodeFrameCount,
    frameSizePx: record.frameWidth,
    pixelSpacingMm: record.pixelSpacingMm,
    frameRateHz: record.frameRateHz,
    pullbackSpeedMmPerS: record.pullbackSpeedMmPerS,
    // A post-PCI demo run shows the stent implanted before it (issue 28); every other record is as it was.
    ...(demoShowsStent(record) ? { hardCases: { deployedStent: true } } : {}),
  };
}

/** The demo generator's description of a record's pullback. */
export function pullbackModelOf(record: RecordRow): PullbackModel {
  return createPullbackModel(modelOptionsOf(record));
}

function seedFromId(id: string): number {
  let hash = 2166136261;
  for (const char of id) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}
