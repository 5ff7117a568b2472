/**
 * A shape prior on the vessel border (EEM) across wide low-signal arcs (issue 23): a calcium shadow
 * or a side branch's ostium can cover a third of the circumference, and there the image shows no
 * wall. The expert continues the EEM's smooth, near-elliptical course across such an arc; a search
 * that follows the nearest edge runs out along the branch's far wall or in to the lumen.
 *
 * 1. Rays that saw no wall (noWallRays): between the lumen and the EEM the image is mostly dark or
 *    without speckle (a branch's blood up to its far wall), or nothing beyond the EEM is tissue (a
 *    shadow, also one without a bright echo in front, which shadowedRays needs: the search took
 *    the last edge before it, down to the lumen's). They carry no evidence of where the wall is and
 *    are left out of the ellipse, with the shoulders beside a run of them (leaveOutShoulders: the
 *    border leaves and rejoins the wall gradually).
 * 2. The EEM's ellipse from the other seeing rays, robust to a whole missing arc (arcRobustEemFit,
 *    arc-robust-ellipse.ts). The detector's side-branch test (border-detector.ts step 7) measures
 *    the EEM against this ellipse.
 * 3. At the end (bridgeEemAcrossArcs) runs of wall-less rays whose EEM strays from the ellipse join
 *    the blind rays, and across every blind arc the EEM follows the ellipse (bridgeBlindEem),
 *    shifted at each end to meet the seeing neighbour so that no step is left, never inside the
 *    lumen plus the minimal plaque+media thickness.
 */
import { arcRobustEemFit } from './arc-robust-ellipse.ts';
import { forEachBlindRun } from './radial-profile.ts';

/** What noWallRays reads of the polar image (lengths in polar samples). */
export interface WallEvidence {
  /** Smoothed polar image S, ray by ray (sampleCount each). */
  readonly smooth: Float32Array;
  /** 1 where a sample carries speckle. */
  readonly lit: Uint8Array;
  readonly sampleCount: number;
  /** Samples each ray holds inside the frame. */
  readonly insideCount: Int32Array;
  /** S at or below this is no tissue (between the blood's and the bright tissue's levels). */
  readonly tissueLevel: number;
  /** Samples just outside the lumen and just inside the EEM left out of the wall (its edges). */
  readonly edge: number;
  /** Shortest wall (samples) judged; the band beyond the EEM judged (samples). */
  readonly minWall: number;
  readonly band: number;
  /** A shoulder beside a wall-less run climbs by more than this many samples per ray. */
  readonly shoulderSlope: number;
}

/** A ray that saw a wall shows tissue on at least this share of the samples judged. */
const WALL_SHARE = 0.3;
/**
 * wallEemFit's shares, tried in turn until most rays saw a wall. Plaque darker than the tissue level
 * (20 MHz coronary: median 52, adventitia 125) fails the first on most rays, and the ellipse was then
 * fitted through a branch's ostium; a branch's blood, with next to no tissue, still fails the second
 * (tuning seeds: 0.02 and 0.05 alike; at 0.1 dark plaque fails again).
 */
const WALL_SHARES = [WALL_SHARE, 0.05] as const;

/**
 * Marks in `noWall` (1) the rays that saw no wall: the plaque and media between the lumen and the
 * EEM (`lumen[a]`, `eem[a]`, polar samples) are mostly dark or without speckle (a branch's blood
 * between the lumen and its far wall), or nothing beyond the EEM is tissue (a shadow: the search
 * took the last edge before it). Tissue is a lit sample above the tissue level.
 */
export function noWallRays(lumen: ArrayLike<number>, eem: ArrayLike<number>, evidence: WallEvidence, noWall: Uint8Array, wallShare = WALL_SHARE): void {
  const { smooth, lit, sampleCount, insideCount, tissueLevel, edge, minWall, band } = evidence;
  const tissueShare = (row: number, from: number, to: number): number => {
    let count = 0;
    let tissue = 0;
    for (let k = Math.max(0, from); k < to; k++) {
      count++;
      if (lit[row + k] === 1 && smooth[row + k]! > tissueLevel) tissue++;
    }
    return count === 0 ? 1 : tissue / count;
  };
  for (let a = 0; a < eem.length; a++) {
    const row = a * sampleCount;
    const end = Math.min(sampleCount, insideCount[a]!);
    const wallFrom = Math.round(lumen[a]!) + edge;
    const wallTo = Math.min(end, Math.round(eem[a]!) - edge);
    const darkWall = wallTo - wallFrom >= minWall && tissueShare(row, wallFrom, wallTo) < wallShare;
    const beyondFrom = Math.round(eem[a]!) + edge;
    const darkBeyond = beyondFrom + band <= end && tissueShare(row, beyondFrom, beyondFrom + band) < wallShare;
    noWall[a] = darkWall || darkBeyond ? 1 : 0;
  }
}

/**
 * The share of the rays on which no signal lies beyond the EEM `eem` (candidate indices from polar
 * sample `first`): fewer than WALL_SHARE of the band's samples past it carry speckle (`lit`), or the
 * ray leaves the frame first. Such an EEM is where the signal ends (a deep field at 60 MHz), not the
 * vessel's outer wall, which always has the adventitia's speckle behind it.
 */
export function silentBeyondShare(eem: Int32Array, first: number, evidence: Pick<WallEvidence, 'lit' | 'sampleCount' | 'insideCount' | 'edge' | 'band'>): number {
  const { lit, sampleCount, insideCount, edge, band } = evidence;
  let silent = 0;
  for (let a = 0; a < eem.length; a++) {
    const row = a * sampleCount;
    const from = eem[a]! + first + edge;
    const to = Math.min(sampleCount, insideCount[a]!, from + band);
    let seen = 0;
    for (let k = from; k < to; k++) seen += lit[row + k]!;
    if (to - from < band || seen < WALL_SHARE * band) silent++;
  }
  return silent / eem.length;
}

/** Rays that saw a wall: at least this share of the circle for the wall test to count. */
const MIN_WALL_SHARE = 0.5;
/** Rays over which a shoulder's slope is measured. */
const SHOULDER_STEP = 10;
const SHOULDER_MIN_RUN = 8;

/**
 * The border leaves and rejoins the wall gradually (the search's smoothness), so the rays beside a
 * run that saw no wall still climb towards it: from each end of a run of at least SHOULDER_MIN_RUN
 * rays, the rays are marked in `unseen` while the EEM moves towards the run's by more than
 * `slope` samples per ray (over two steps of SHOULDER_STEP rays).
 */
function leaveOutShoulders(eem: Float64Array, noWall: Uint8Array, slope: number, unseen: Uint8Array): void {
  const n = eem.length;
  const runs = new Uint8Array(n);
  if (markRuns(noWall, SHOULDER_MIN_RUN, runs) === 0 || runs.every((r) => r === 1)) return;
  for (let a = 0; a < n; a++) {
    if (runs[a] === 0) continue;
    for (const direction of [-1, 1]) {
      // Only from a run's end.
      if (runs[(a + direction + n) % n] === 1) continue;
      // Which way the run lies off the wall: out (a branch) or in (a shadow).
      const inside = eem[(a - direction * SHOULDER_STEP + n) % n]!;
      let at = a;
      for (let walked = 0; walked < n / 4; walked += SHOULDER_STEP) {
        const next = (at + direction * SHOULDER_STEP + n * SHOULDER_STEP) % n;
        // Over two steps: a shoulder may pause for a few rays.
        const ahead = (at + 2 * direction * SHOULDER_STEP + n * SHOULDER_STEP) % n;
        const towards = Math.sign(inside - eem[ahead]!) * (eem[at]! - eem[ahead]!);
        if (runs[next] === 1 || towards < 2 * slope * SHOULDER_STEP) break;
        for (let j = 1; j <= SHOULDER_STEP; j++) unseen[(at + direction * j + n * SHOULDER_STEP) % n] = 1;
        at = next;
      }
    }
  }
}

/** How radii map to polar samples: sample = value · scale + offset. */
export interface SampleMap {
  readonly scale: number;
  readonly offset: number;
}

/**
 * The EEM's ellipse (into `fit`, in the units of `eem`) from the rays that saw a wall: blind rays
 * and those noWallRays marks (written into `noWall`) are left out, unless they are most of the
 * circle at every share of WALL_SHARES (then `noWall` is cleared). False when too few rays see.
 */
export function wallEemFit(eem: ArrayLike<number>, lumen: ArrayLike<number>, map: SampleMap, blind: Uint8Array, evidence: WallEvidence, tolerance: number, floor: number, fit: Float64Array, noWall: Uint8Array): boolean {
  const n = eem.length;
  const eemSamples = new Float64Array(n);
  const lumenSamples = new Float64Array(n);
  for (let a = 0; a < n; a++) {
    eemSamples[a] = eem[a]! * map.scale + map.offset;
    lumenSamples[a] = lumen[a]! * map.scale + map.offset;
  }
  const unseen = new Uint8Array(n);
  let walls = 0;
  for (const share of WALL_SHARES) {
    noWallRays(lumenSamples, eemSamples, evidence, noWall, share);
    for (let a = 0; a < n; a++) unseen[a] = blind[a] === 1 || noWall[a] === 1 ? 1 : 0;
    leaveOutShoulders(eemSamples, noWall, evidence.shoulderSlope, unseen);
    walls = 0;
    for (let a = 0; a < n; a++) walls += unseen[a] === 1 ? 0 : 1;
    if (walls >= MIN_WALL_SHARE * n) break;
  }
  if (walls < MIN_WALL_SHARE * n) {
    // Most of the circle without a wall is no ostium nor a shadow but a frame the test cannot read
    // (dark throughout, or many struts' shadows): no ray is told apart, the fit is over all seeing rays.
    noWall.fill(0);
    return arcRobustEemFit(eem, blind, tolerance, floor, fit);
  }
  return arcRobustEemFit(eem, unseen, tolerance, floor, fit);
}

/** Keeps in `out` only the runs (circular) of at least minRun marked rays of `mask`; returns how many rays. */
function markRuns(mask: Uint8Array, minRun: number, out: Uint8Array): number {
  const n = mask.length;
  out.fill(0);
  if (mask.every((m) => m === 1)) {
    out.fill(1);
    return n;
  }
  let marked = 0;
  for (let a = 0; a < n; a++) {
    if (mask[a] === 0 || mask[(a + n - 1) % n] === 1) continue;
    let length = 0;
    while (length < n && mask[(a + length) % n] === 1) length++;
    if (length < minRun) continue;
    for (let j = 0; j < length; j++) out[(a + j) % n] = 1;
    marked += length;
  }
  return marked;
}

/**
 * Fills the blind rays of `radii` from the ellipse `fit` (same units): across each blind run the
 * fit plus the offsets that meet the seeing rays at its ends, blended linearly along the run; then
 * no blind ray inside `lumen` + `minGap`. Without a seeing ray, radii are left as they are.
 */
export function bridgeBlindEem(radii: Float32Array, blind: Uint8Array, fit: ArrayLike<number>, lumen: Float32Array, minGap: number): void {
  const n = radii.length;
  forEachBlindRun(blind, (before, after, gap) => {
    const offset0 = radii[before]! - fit[before]!;
    const offset1 = radii[after]! - fit[after]!;
    for (let g = 1; g < gap; g++) {
      const ray = (before + g) % n;
      const t = g / gap;
      radii[ray] = Math.max(fit[ray]! + offset0 * (1 - t) + offset1 * t, lumen[ray]! + minGap);
    }
  });
}

/** Inlier tolerance of the arc hypotheses, and the trimming floor, mm. */
const ARC_TOLERANCE_MM = 0.1;
const ARC_FLOOR_MM = 0.08;
/** A run of rays that saw no wall is bridged when its EEM strays this far from the ellipse, over at least this many rays, widened by the margin. */
const STRAY_MM = 0.2;
const STRAY_MIN_RAYS = 8;
const STRAY_MARGIN_RAYS = 3;
/** Wall judged from this far past the lumen and inside the EEM; at least this thick; the band beyond the EEM. */
const WALL_EDGE_MM = 0.05;
const MIN_WALL_MM = 0.2;
const BEYOND_BAND_MM = 0.4;
const SHOULDER_SLOPE_MM = 0.005;

/** The shape prior's lengths: tolerances in `unitMm` units, the wall test's in polar samples of `sampleMm`. */
export function eemArcScales(unitMm: number, sampleMm = unitMm): { readonly tolerance: number; readonly floor: number; readonly edge: number; readonly minWall: number; readonly band: number; readonly shoulderSlope: number } {
  return {
    tolerance: ARC_TOLERANCE_MM / unitMm,
    floor: ARC_FLOOR_MM / unitMm,
    edge: Math.round(WALL_EDGE_MM / sampleMm),
    minWall: Math.round(MIN_WALL_MM / sampleMm),
    band: Math.round(BEYOND_BAND_MM / sampleMm),
    shoulderSlope: SHOULDER_SLOPE_MM / sampleMm,
  };
}

/**
 * The final EEM radii (pixels): rays that saw no wall and whose EEM strays from the ellipse join
 * the blind ones (`blind` is updated), and every blind arc follows the robust ellipse rather than
 * a straight line between its ends; never inside lumen + minGapPx. `map` takes pixels to polar
 * samples of `sampleMm`. Returns false (blind rays interpolated linearly) when too few rays see.
 */
export function bridgeEemAcrossArcs(
  radii: Float32Array,
  blind: Uint8Array,
  lumen: Float32Array,
  pixelSpacingMm: number,
  sampleMm: number,
  map: SampleMap,
  evidence: Omit<WallEvidence, 'edge' | 'minWall' | 'band' | 'shoulderSlope'>,
  minGapPx: number,
): boolean {
  const n = radii.length;
  const scales = eemArcScales(pixelSpacingMm, sampleMm);
  const fit = new Float64Array(n);
  const noWall = new Uint8Array(n);
  if (!wallEemFit(radii, lumen, map, blind, { ...evidence, ...scales }, scales.tolerance, scales.floor, fit, noWall)) {
    // A zero "ellipse": the straight line between the seeing ends.
    bridgeBlindEem(radii, blind, new Float64Array(n), lumen, minGapPx);
    return false;
  }
  const stray = new Uint8Array(n);
  const strayPx = STRAY_MM / pixelSpacingMm;
  for (let a = 0; a < n; a++) stray[a] = blind[a] === 0 && noWall[a] === 1 && Math.abs(radii[a]! - fit[a]!) > strayPx ? 1 : 0;
  const runs = new Uint8Array(n);
  if (markRuns(stray, STRAY_MIN_RAYS, runs) > 0) {
    for (let a = 0; a < n; a++) {
      if (runs[a] === 0) continue;
      for (let d = -STRAY_MARGIN_RAYS; d <= STRAY_MARGIN_RAYS; d++) blind[(a + d + n) % n] = 1;
    }
  }
  bridgeBlindEem(radii, blind, fit, lumen, minGapPx);
  return true;
}
