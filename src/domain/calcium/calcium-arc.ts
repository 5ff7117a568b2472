/**
 * Calcium in one B-mode frame (issue 28): rays round the catheter where, just beyond the lumen
 * border, a bright leading edge stands in front of an acoustic shadow (calcium reflects nearly all
 * the sound: what lies behind it is dark). Their largest arc, in degrees, with where it starts and
 * ends, and whether that arc's surface bulges into the lumen (a calcified nodule).
 *
 * Works on the lumen border the border detector found (its 360 rays round the catheter centre, 0
 * along +x, turning towards +y); a frame the border detector could not read gets no arc (null).
 * Grey levels are log-compressed, so brightness ratios are differences of grey: the edge must stand
 * EDGE_OVER_SHADOW grey levels over what follows it.
 */
import { createPolarSampler, type PolarSampler } from '../contours/polar-sampler.ts';
import { selectNth } from '../contours/select-nth.ts';

export interface CalciumFrameGeometry {
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly pixelSpacingMm: number;
  /** The catheter centre (the frame's middle by default), as the border detector's. */
  readonly centreX?: number;
  readonly centreY?: number;
}

export interface CalciumArc {
  /** 0 where the frame shows no calcium; 360 where it closes round the catheter. */
  readonly arcDeg: number;
  /** Where the largest arc starts and ends, degrees in [0, 360), turning from +x towards +y (0 and 0 at 360°). */
  readonly startDeg: number;
  readonly endDeg: number;
  /** How far the arc's surface stands into the lumen over the line between its flanks (mm; 0 without calcium). */
  readonly protrusionMm: number;
}

/** Per ray, what the last detect() read (for tuning: bench/calcium-tuning.ts). */
export interface CalciumRayReadings {
  readonly edgeOverShadow: Float32Array;
  readonly shadowOverFloor: Float32Array;
}

export interface CalciumArcDetector {
  readonly readings: CalciumRayReadings;
  /** The frame's calcium, on the border detector's lumen radii (pixels per ray); null when the frame was not readable. */
  detect(frame: Uint8Array, lumenRadiiPx: Float32Array | null): CalciumArc | null;
}

export const CALCIUM_RAYS = 360;
/**
 * The leading edge is looked for from inside the lumen border (the border detector may take a deep
 * shadow for blood and put the lumen behind the calcium), never nearer the catheter centre than
 * EDGE_NEAREST_MM (the guidewire and its echoes lie nearer), to this far beyond the border.
 */
const EDGE_BEFORE_LUMEN_MM = 1.6;
const EDGE_NEAREST_MM = 0.68;
/**
 * The guidewire (a 0.36 mm wire beside the catheter) is bright with a shadow too: a narrow arc whose
 * edge lies this near the catheter centre is the wire, not calcium.
 */
const WIRE_MAX_EDGE_MM = 0.95;
const WIRE_MAX_ARC_RAYS = 40;
const EDGE_BEYOND_LUMEN_MM = 0.8;
/** The wall depth beyond the lumen whose darkest values give the frame's dark floor. */
const FLOOR_DEPTH_MM = 1.5;
/** The shadow is read from this far behind the edge ... */
const SHADOW_FROM_MM = 0.3;
/** ... over this depth. */
const SHADOW_DEPTH_MM = 0.6;
/** Rays averaged on each side before reading (speckle); smoothAcrossRays is written out for 2. */
const SMOOTH_RAYS = 2;
/** A nodule's dome is measured against the chord between the edge this far (of the arc) in from each end. */
const EDGE_CHORD_AT = 0.15;
export const CALCIUM_TUNING = {
  /** Grey levels the edge stands over its shadow. */
  edgeOverShadow: 165,
  /** Grey levels the shadow may reach at most, over the frame's dark floor. */
  shadowOverFloor: 60,
  /** Gaps of fewer rays between calcium rays are closed (the guidewire's shadow, speckle). */
  closeGapRays: 12,
  /** Runs of fewer rays are dropped (stent struts, speckle). */
  minRunRays: 8,
};

/** An arc whose surface stands this far into the lumen is a calcified nodule (with an arc under 180°). */
export const NODULE_PROTRUSION_MM = 0.2;

export function isNodule(arc: CalciumArc | null): boolean {
  return arc !== null && arc.arcDeg > 0 && arc.arcDeg < 180 && arc.protrusionMm >= NODULE_PROTRUSION_MM;
}

export function createCalciumArcDetector(geometry: CalciumFrameGeometry): CalciumArcDetector {
  const { frameWidth, frameHeight, pixelSpacingMm } = geometry;
  const centreX = geometry.centreX ?? frameWidth / 2;
  const centreY = geometry.centreY ?? frameHeight / 2;
  const sampleCount = Math.floor(Math.max(centreX, frameWidth - centreX, centreY, frameHeight - centreY));
  const sampler: PolarSampler = createPolarSampler({
    frameWidth,
    frameHeight,
    centreX,
    centreY,
    angleCount: CALCIUM_RAYS,
    firstRadiusPx: 0,
    radialStepPx: 1,
    sampleCount,
  });
  const polar = new Float32Array(CALCIUM_RAYS * sampleCount);
  const smooth = new Float32Array(CALCIUM_RAYS * sampleCount);
  const px = (mm: number): number => Math.max(1, Math.round(mm / pixelSpacingMm));
  const calcium = new Uint8Array(CALCIUM_RAYS);
  const edgePx = new Float32Array(CALCIUM_RAYS);
  const readings = { edgeOverShadow: new Float32Array(CALCIUM_RAYS), shadowOverFloor: new Float32Array(CALCIUM_RAYS) };
  const readFrom = new Int32Array(CALCIUM_RAYS);
  const readTo = new Int32Array(CALCIUM_RAYS);
  const polarFrom = new Int32Array(CALCIUM_RAYS);
  const polarTo = new Int32Array(CALCIUM_RAYS);
  const floorScratch = new Float32Array(CALCIUM_RAYS * sampleCount);
  // Lengths in pixels, found once (px per ray and per call was a tenth of the calcium's time).
  const lengths: RayLengths = {
    nearest: px(EDGE_NEAREST_MM),
    before: px(EDGE_BEFORE_LUMEN_MM),
    beyond: px(EDGE_BEYOND_LUMEN_MM),
    shadowFrom: px(SHADOW_FROM_MM),
    shadowDepth: px(SHADOW_DEPTH_MM),
    shadowReach: px(SHADOW_FROM_MM + SHADOW_DEPTH_MM),
  };
  const floorDepth = px(FLOOR_DEPTH_MM);
  // How far beyond the lumen border anything is read: the shadow behind the farthest edge, or the floor's depth.
  const readBeyond = Math.max(lengths.beyond + lengths.shadowFrom + lengths.shadowDepth, floorDepth);
  const reading: RayReading = { edge: 0, edgePx: 0, shadow: 0 };
  return {
    readings,
    detect(frame, lumenRadiiPx) {
      if (lumenRadiiPx === null) return null;
      if (lumenRadiiPx.length !== CALCIUM_RAYS) throw new RangeError(`lumen radii must hold ${CALCIUM_RAYS} rays, got ${lumenRadiiPx.length}`);
      // Only what readRay and darkFloor read is smoothed: from readRay's first sample (or the lumen
      // border, where darkFloor starts, if that is nearer) to the end of the farthest shadow readRay
      // can read or of the floor's depth, whichever is farther (smoothing is per sample: fewer
      // samples smoothed change none of the values read).
      for (let a = 0; a < CALCIUM_RAYS; a++) {
        const lumenPx = lumenRadiiPx[a]!;
        readFrom[a] = Math.max(0, Math.min(sampleCount, Math.max(lengths.nearest, Math.floor(lumenPx) - lengths.before), Math.ceil(lumenPx)));
        readTo[a] = Math.min(sampleCount, Math.ceil(lumenPx) + readBeyond + 1);
      }
      // Only the polar samples that smoothing reads: ray b's band is the union of its neighbours'
      // (b ± SMOOTH_RAYS) read bands. The whole field was resampled before: most of the calcium's time.
      for (let b = 0; b < CALCIUM_RAYS; b++) {
        let from = sampleCount;
        let to = 0;
        for (let d = -SMOOTH_RAYS; d <= SMOOTH_RAYS; d++) {
          const a = (b + d + CALCIUM_RAYS) % CALCIUM_RAYS;
          if (readTo[a]! <= readFrom[a]!) continue;
          from = Math.min(from, readFrom[a]!);
          to = Math.max(to, readTo[a]!);
        }
        polarFrom[b] = from;
        polarTo[b] = to;
      }
      sampler.resampleBands(frame, polar, polarFrom, polarTo);
      smoothAcrossRays(polar, smooth, sampleCount, readFrom, readTo);
      const floor = darkFloor(smooth, sampleCount, sampler.insideCount, lumenRadiiPx, floorDepth, floorScratch);
      for (let a = 0; a < CALCIUM_RAYS; a++) {
        readRay(smooth, a * sampleCount, sampler.insideCount[a]!, lumenRadiiPx[a]!, lengths, reading);
        edgePx[a] = reading.edgePx;
        readings.edgeOverShadow[a] = reading.edge - reading.shadow;
        readings.shadowOverFloor[a] = reading.shadow - floor;
        calcium[a] = reading.edge - reading.shadow >= CALCIUM_TUNING.edgeOverShadow && reading.shadow - floor <= CALCIUM_TUNING.shadowOverFloor ? 1 : 0;
      }
      dropGuidewire(calcium, edgePx, WIRE_MAX_EDGE_MM / pixelSpacingMm);
      closeAndOpen(calcium, CALCIUM_TUNING.closeGapRays, CALCIUM_TUNING.minRunRays);
      return largestArc(calcium, edgePx, pixelSpacingMm);
    },
  };
}

function smoothAcrossRays(polar: Float32Array, out: Float32Array, sampleCount: number, from: Int32Array, to: Int32Array): void {
  const weight = 1 / (2 * SMOOTH_RAYS + 1);
  for (let a = 0; a < CALCIUM_RAYS; a++) {
    const row = a * sampleCount;
    // The five rays' rows, found once per ray (a modulo per sample was most of this loop's time);
    // summed in the same order as before, so the values are the same to the bit.
    const r0 = ((a - 2 + CALCIUM_RAYS) % CALCIUM_RAYS) * sampleCount;
    const r1 = ((a - 1 + CALCIUM_RAYS) % CALCIUM_RAYS) * sampleCount;
    const r3 = ((a + 1) % CALCIUM_RAYS) * sampleCount;
    const r4 = ((a + 2) % CALCIUM_RAYS) * sampleCount;
    for (let k = from[a]!; k < to[a]!; k++) out[row + k] = (polar[r0 + k]! + polar[r1 + k]! + polar[row + k]! + polar[r3 + k]! + polar[r4 + k]!) * weight;
  }
}

/** The frame's dark level: the 5th percentile of the wall beyond the lumen (deep shadow reaches it, tissue does not). */
function darkFloor(smooth: Float32Array, sampleCount: number, insideCount: Int32Array, lumenRadiiPx: Float32Array, depthPx: number, values: Float32Array): number {
  let count = 0;
  for (let a = 0; a < CALCIUM_RAYS; a += 3) {
    const from = Math.ceil(lumenRadiiPx[a]!);
    const to = Math.min(insideCount[a]!, from + depthPx);
    for (let k = from; k < to; k += 2) values[count++] = smooth[a * sampleCount + k]!;
  }
  if (count === 0) return 0;
  // The value a sort would put there, without the sort (it was a fifth of the calcium's time).
  return selectNth(values, count, Math.floor(0.05 * count));
}

interface RayReading {
  edge: number;
  edgePx: number;
  shadow: number;
}

/** The lengths readRay reads over, in pixels. */
interface RayLengths {
  readonly nearest: number;
  readonly before: number;
  readonly beyond: number;
  readonly shadowFrom: number;
  readonly shadowDepth: number;
  /** px(SHADOW_FROM_MM + SHADOW_DEPTH_MM): what must lie inside the frame behind an edge. */
  readonly shadowReach: number;
}

/** The ray's brightest sample near the lumen border, and the mean of its shadow, into `out` (kept between rays). */
function readRay(smooth: Float32Array, row: number, inside: number, lumenPx: number, lengths: RayLengths, out: RayReading): void {
  const from = Math.max(lengths.nearest, Math.floor(lumenPx) - lengths.before);
  const to = Math.min(inside - lengths.shadowReach, Math.ceil(lumenPx) + lengths.beyond);
  let edge = -Infinity;
  let edgePx = lumenPx;
  for (let k = from; k < to; k++) {
    const value = smooth[row + k]!;
    if (value > edge) {
      edge = value;
      edgePx = k;
    }
  }
  if (edge === -Infinity) {
    out.edge = 0;
    out.edgePx = lumenPx;
    out.shadow = 255;
    return;
  }
  const shadowFrom = edgePx + lengths.shadowFrom;
  const shadowTo = shadowFrom + lengths.shadowDepth;
  let sum = 0;
  for (let k = shadowFrom; k < shadowTo; k++) sum += smooth[row + k]!;
  out.edge = edge;
  out.edgePx = edgePx;
  out.shadow = sum / (shadowTo - shadowFrom);
}

/** Clears narrow arcs whose edge (median over the arc) lies nearer the catheter centre than `wireEdgePx`. */
function dropGuidewire(flags: Uint8Array, edgePx: Float32Array, wireEdgePx: number): void {
  const n = flags.length;
  for (const run of circularRuns(flags, 1)) {
    if (run.length >= WIRE_MAX_ARC_RAYS) continue;
    const edges = Array.from({ length: run.length }, (_, i) => edgePx[(run.start + i) % n]!).sort((x, y) => x - y);
    if (edges[Math.floor(edges.length / 2)]! < wireEdgePx) for (let i = 0; i < run.length; i++) flags[(run.start + i) % n] = 0;
  }
}

/** Closes gaps shorter than `gap` rays between calcium rays, then drops runs shorter than `minRun` (circularly). */
export function closeAndOpen(flags: Uint8Array, gap: number, minRun: number): void {
  const n = flags.length;
  const runs = (value: number) => circularRuns(flags, value);
  if (flags.includes(1)) for (const run of runs(0)) if (run.length < gap) for (let i = 0; i < run.length; i++) flags[(run.start + i) % n] = 1;
  for (const run of runs(1)) if (run.length < minRun) for (let i = 0; i < run.length; i++) flags[(run.start + i) % n] = 0;
}

interface Run {
  readonly start: number;
  readonly length: number;
}

/** Runs of `value` round the circle (a run over the seam is one run); the whole circle is one run from 0. */
export function circularRuns(flags: Uint8Array, value: number): Run[] {
  const n = flags.length;
  const first = flags.findIndex((f) => f !== value);
  if (first < 0) return [{ start: 0, length: n }];
  const runs: Run[] = [];
  let start = -1;
  for (let i = 0; i < n; i++) {
    const index = (first + i) % n;
    if (flags[index] === value) {
      if (start < 0) start = index;
    } else if (start >= 0) {
      runs.push({ start, length: (index - start + n) % n });
      start = -1;
    }
  }
  if (start >= 0) runs.push({ start, length: (first - start + n) % n || n });
  return runs;
}

function largestArc(flags: Uint8Array, edgePx: Float32Array, pixelSpacingMm: number): CalciumArc {
  const n = flags.length;
  const runs = circularRuns(flags, 1);
  if (!flags.includes(1)) return { arcDeg: 0, startDeg: 0, endDeg: 0, protrusionMm: 0 };
  const run = runs.reduce((best, r) => (r.length > best.length ? r : best));
  const degPerRay = 360 / n;
  if (run.length === n) return { arcDeg: 360, startDeg: 0, endDeg: 0, protrusionMm: 0 };
  return {
    arcDeg: run.length * degPerRay,
    startDeg: run.start * degPerRay,
    endDeg: ((run.start + run.length) % n) * degPerRay,
    protrusionMm: protrusion(run, edgePx) * pixelSpacingMm,
  };
}

/**
 * How far the arc's leading edge stands in front of the chord between its own edge near the arc's
 * two ends (at EDGE_CHORD_AT of its width from each end): a nodule domes into the lumen, calcium
 * along the wall follows the wall's gentle curve. Edge radii are medians over 5 rays (speckle).
 */
function protrusion(run: Run, edgePx: Float32Array): number {
  const n = edgePx.length;
  if (run.length > n / 2 || run.length < 10) return 0;
  const edgeAt = (i: number): number => {
    const values = [-2, -1, 0, 1, 2].map((d) => edgePx[(run.start + Math.min(run.length - 1, Math.max(0, i + d))) % n]!);
    return values.sort((x, y) => x - y)[2]!;
  };
  const first = Math.round(EDGE_CHORD_AT * (run.length - 1));
  const last = run.length - 1 - first;
  const before = edgeAt(first);
  const after = edgeAt(last);
  let most = 0;
  for (let i = first + 1; i < last; i++) {
    const line = before + ((after - before) * (i - first)) / (last - first);
    most = Math.max(most, line - edgeAt(i));
  }
  return most;
}
