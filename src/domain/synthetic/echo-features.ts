/**
 * Per-line coverage of the hard cases' features (see hard-cases.ts) for echo-line.ts: how much of an
 * A-line at a given angle lies in the echolucent sector, in a side branch's ostium or behind a stent
 * strut. All are 0 (or null) on demo models.
 */
import type { BranchOpening, EcholucentSector, StentStruts } from './cross-section.ts';
import { angleDifferenceRad } from './section-geometry.ts';

/** Strut echo, as strong as the guidewire's: both are metal. */
export const STRUT_SPECULAR = 6;
/** A strut passes almost nothing: behind it the wall is a dark shadow. */
export const STRUT_SHADOW = 0.93;
/** Reverberation inside the strut shows just behind its back. */
export const STRUT_REVERB_MM = 0.06;
/** Soft edges of the sectors, so their borders are not aliased across lines. */
const LUCENT_EDGE_RAD = 0.12;
const BRANCH_EDGE_RAD = 0.1;
const STRUT_EDGE_MM = 0.02;

function clamp01(value: number): number {
  return value <= 0 ? 0 : value >= 1 ? 1 : value;
}

/** 1 inside the echolucent sector, fading to 0 across its edges. */
export function echolucentCoverage(sector: EcholucentSector | null, angleRad: number): number {
  if (sector === null) return 0;
  const fromCentre = Math.abs(angleDifferenceRad(angleRad, sector.centreAngleRad));
  return clamp01((sector.halfArcRad - fromCentre) / LUCENT_EDGE_RAD + 0.5);
}

export interface BranchLine {
  /** 0 where the wall is whole, 1 where it is missing altogether. */
  readonly open: number;
  /** Where tissue begins on this line: the lumen border, or further out in the ostium. */
  readonly tissueStartMm: number;
}

/**
 * The ostium: inside its sector the wall gives way to the branch's lumen, reaching furthest out at
 * the sector's middle (a round branch seen from the side). The opening fades in only inside the
 * sector, so the truth bridge (which spans the sector exactly) covers all of it.
 */
export function branchOpening(branch: BranchOpening | null, angleRad: number, lumenMm: number, vesselMm: number): BranchLine | null {
  if (branch === null) return null;
  const fromCentre = Math.abs(angleDifferenceRad(angleRad, branch.centreAngleRad));
  if (fromCentre >= branch.halfArcRad) return null;
  const open = clamp01((branch.halfArcRad - fromCentre) / BRANCH_EDGE_RAD);
  const u = fromCentre / branch.halfArcRad;
  const farMm = vesselMm + branch.depthMm * Math.sqrt(1 - u * u);
  return { open, tissueStartMm: lumenMm + open * (farMm - lumenMm) };
}

/** Strut cover of the line: 1 on a strut (its width spans an arc at the lumen border), 0 between struts. */
export function strutCover(struts: StentStruts | null, angleRad: number, lumenMm: number): number {
  if (struts === null) return 0;
  const halfArcRad = (0.5 * struts.widthMm) / lumenMm;
  const edgeRad = STRUT_EDGE_MM / lumenMm;
  let cover = 0;
  for (const strutAngle of struts.anglesRad) {
    const fromStrut = Math.abs(angleDifferenceRad(angleRad, strutAngle));
    cover = Math.max(cover, clamp01((halfArcRad - fromStrut) / edgeRad + 0.5));
  }
  return cover;
}
