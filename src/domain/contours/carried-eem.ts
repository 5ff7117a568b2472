/**
 * An EEM the previous frame's continuity carried, checked against the shape prior (issue 23:
 * continuity helps, and never carries a failure).
 *
 * The vessel search pays for leaving the previous frame's EEM (addContinuity). When the evidence
 * has moved (NURD twisting the rays, a catheter swinging eccentric, a side branch's ostium closing)
 * that cost can hold an EEM the image no longer shows, and the next frame inherits it: side-branch
 * evaluation seed 2201 frame 899 read vessel Dice 0.923 in sequence against 0.990 alone.
 *
 * Telling the two EEMs apart by how far they disagree does not work: across a low-signal arc the
 * prior is right as often as it is wrong (branch lsarc-vesselprior, rejected). What does separate
 * them is the EEM's shape: a true EEM is smooth and near-elliptical, and an EEM held on the previous
 * frame's course where the evidence lies elsewhere is neither (it bends from the old course to the
 * new one). So:
 * - trigger: the carried path's residual from its robust ellipse (eemShapeResidual) is above
 *   CARRIED_RESIDUAL_MM. Cheap (one trimmed harmonic fit over 360 rays); it fires on about 4 % of
 *   the TUNING sequence frames of the case types below, 1–2 % of the evaluation frames;
 * - only then the EEM is searched again without continuity, and that path replaces the carried one
 *   when it is near-elliptical itself (residual below FREE_RESIDUAL_MM) and has signal beyond it
 *   (MORE_SILENT_SHARE).
 * Fitted on TUNING seeds (nurd, eccentric catheter, mixed 20/60 MHz, side branch, low-signal arc),
 * offline from two dumps (continuity always / never): the 35 frames the two residual thresholds
 * swap all gained (+0.024 to +0.33 vessel Dice), none lost.
 */
import { robustEemFit } from './vessel-search.ts';

/** A carried EEM whose mean residual from its robust ellipse is above this is searched again without continuity. */
export const CARRIED_RESIDUAL_MM = 0.04;
/** The EEM searched without continuity replaces the carried one when its residual is below this. */
export const FREE_RESIDUAL_MM = 0.025;
/**
 * The EEM without continuity is kept only if no signal lies beyond it (eem-shape-prior.ts
 * silentBeyondShare) on at most this share of the rays more than beyond the carried one. TUNING:
 * +0.09 on the NURD frame it must take (tests/domain/contours/carried-eem.test.ts), +0.25 on the
 * 60 MHz frame it must not.
 */
const MORE_SILENT_SHARE = 0.15;
/** A ray's residual counts at most this much (an ostium's run-out is one wrong arc, not a measure of it). */
const RESIDUAL_CAP_MM = 0.3;

/**
 * Mean distance (mm) of an EEM path (samples of `sampleMm`, one per ray) from its robust ellipse
 * (robustEemFit, trimming floor `floor` samples), over the rays not `blind`, each capped at
 * RESIDUAL_CAP_MM. Infinity when too few rays see to fit.
 */
export function eemShapeResidual(path: ArrayLike<number>, blind: Uint8Array, floor: number, sampleMm: number, fit: Float64Array): number {
  if (!robustEemFit(path, blind, floor, fit)) return Infinity;
  const cap = RESIDUAL_CAP_MM / sampleMm;
  let sum = 0;
  let count = 0;
  for (let a = 0; a < path.length; a++) {
    if (blind[a] === 1) continue;
    sum += Math.min(Math.abs(path[a]! - fit[a]!), cap);
    count++;
  }
  return count === 0 ? Infinity : (sum / count) * sampleMm;
}

/** What the check found on the last frame the continuity shaped (for benches). */
export interface CarriedEemCheck {
  /** The carried EEM's residual, mm. */
  readonly carriedMm: number;
  /** The EEM's residual searched without continuity, mm; null when the trigger did not fire. */
  readonly freeMm: number | null;
  /** The EEM without continuity replaced the carried one. */
  readonly replaced: boolean;
}

/**
 * Checks the EEM `path` a previous frame's continuity shaped (see the file comment); `searchFree`
 * searches the EEM again without continuity into the path it is given, `silentBeyondShare` is the
 * share of a path's rays with no signal beyond it. `path` is replaced in place when the EEM without continuity wins.
 */
export function checkCarriedEem(path: Int32Array, blind: Uint8Array, floor: number, sampleMm: number, searchFree: (into: Int32Array) => void, silentBeyondShare: (path: Int32Array) => number, scratch: { fit: Float64Array; free: Int32Array }): CarriedEemCheck {
  const carriedMm = eemShapeResidual(path, blind, floor, sampleMm, scratch.fit);
  if (!(carriedMm > CARRIED_RESIDUAL_MM) || carriedMm === Infinity) return { carriedMm, freeMm: null, replaced: false };
  searchFree(scratch.free);
  const freeMm = eemShapeResidual(scratch.free, blind, floor, sampleMm, scratch.fit);
  // An elliptical EEM with no signal beyond it is where the signal ends, not the EEM: mixed-60 MHz
  // tuning seed 1104 frame 857 (a circle 0.005 mm from its ellipse where the 60 MHz signal fades
  // out: silent beyond on 94 % of the rays, the carried EEM on 69 %) would have lost 0.26 vessel Dice.
  const replaced = freeMm < FREE_RESIDUAL_MM && silentBeyondShare(scratch.free) <= silentBeyondShare(path) + MORE_SILENT_SHARE;
  if (replaced) path.set(scratch.free);
  return { carriedMm, freeMm, replaced };
}
