/**
 * Malapposition (issue 28): where the struts stand more than 0.4 mm off the lumen wall (the IVUS
 * consensus threshold), as regions with an arc and a length. Frame by frame, the lines whose wall
 * lies beyond the threshold form arcs; arcs that overlap in angle from frame to frame (allowing a
 * short gap, where a shadow hides a frame's wall) form one region along the pullback.
 *
 * The same region building reads the generator's truth, so detection and truth are counted alike.
 */
import { stentRadiusAt, type StentBorder } from './stent-border.ts';
import { LINE_COUNT, type Strut } from './strut-detection.ts';
import { bloodLevel, wallGapMm, type WallBins } from './wall-gap.ts';

/** Consensus: a strut more than this from the wall is malapposed. */
export const MALAPPOSITION_MM = 0.4;
/** An arc narrower than this (degrees, one line a degree) is speckle, not a region. */
const MIN_ARC_LINES = 20;
/** Gaps this narrow within an arc (a bright speck of blood) are closed. */
const MAX_CLOSED_GAP_LINES = 8;
/** Lines this close to a strut are in its shadow: their wall is read from the lines beside. */
const SHADOW_HALF_LINES = 3;
/** A line whose wall is hidden takes its neighbours' gap across at most this many lines. */
const MAX_FILL_LINES = 20;
/** Arcs this many frames apart still join one region (a frame whose wall a shadow hides). */
const MAX_FRAME_GAP_MM = 0.3;
/** A region shorter than this along the pullback is one frame's noise... */
const MIN_REGION_MM = 0.25;
/** ...and one whose widest arc is narrower than this (degrees) the wall's speckle. */
const MIN_REGION_ARC_DEG = 30;

export interface MalappositionRegion {
  readonly firstFrame: number;
  readonly lastFrame: number;
  readonly lengthMm: number;
  /** The widest arc over the region's frames, in degrees, and the frame it is on. */
  readonly maxArcDeg: number;
  readonly maxArcFrame: number;
  /** The middle of that widest arc, in radians around the catheter (0 along +x, towards +y). */
  readonly angleRad: number;
}

/** Lines (one a degree) whose wall lies more than MALAPPOSITION_MM beyond the stent border. */
export function malapposedLines(border: StentBorder, wall: WallBins, struts: readonly Strut[]): Uint8Array {
  const radius = (line: number): number => stentRadiusAt(border, (2 * Math.PI * line) / LINE_COUNT);
  const blood = bloodLevel(wall, LINE_COUNT, radius);
  const gaps = new Float64Array(LINE_COUNT);
  for (let a = 0; a < LINE_COUNT; a++) gaps[a] = wallGapMm(wall, a, radius(a), blood);
  for (const s of struts) {
    const centre = Math.round((s.angleRad * LINE_COUNT) / (2 * Math.PI));
    for (let d = -SHADOW_HALF_LINES; d <= SHADOW_HALF_LINES; d++) gaps[(((centre + d) % LINE_COUNT) + LINE_COUNT) % LINE_COUNT] = NaN;
  }
  const lines = new Uint8Array(LINE_COUNT);
  for (let a = 0; a < LINE_COUNT; a++) {
    let gap = gaps[a]!;
    if (Number.isNaN(gap)) gap = filledGap(gaps, a);
    lines[a] = gap > MALAPPOSITION_MM ? 1 : 0;
  }
  return closedGaps(lines);
}

/** Sets the lines of every run of unset lines no longer than MAX_CLOSED_GAP_LINES between set ones. */
function closedGaps(lines: Uint8Array): Uint8Array {
  const out = lines.slice();
  const n = lines.length;
  for (let a = 0; a < n; a++) {
    if (lines[a] !== 1 || lines[(a + 1) % n] === 1) continue;
    for (let d = 2; d <= MAX_CLOSED_GAP_LINES + 1; d++) {
      if (lines[(a + d) % n] !== 1) continue;
      for (let k = 1; k < d; k++) out[(a + k) % n] = 1;
      break;
    }
  }
  return out;
}

/** A hidden line's gap: the smaller of the nearest readable gaps on either side (the cautious reading). */
function filledGap(gaps: Float64Array, line: number): number {
  const nearest = (step: number): number => {
    for (let d = 1; d <= MAX_FILL_LINES; d++) {
      const v = gaps[(((line + step * d) % LINE_COUNT) + LINE_COUNT) % LINE_COUNT]!;
      if (!Number.isNaN(v)) return v;
    }
    return NaN;
  };
  const before = nearest(-1);
  const after = nearest(1);
  if (Number.isNaN(before) || Number.isNaN(after)) return NaN;
  return Math.min(before, after);
}

interface Arc {
  readonly frame: number;
  /** First line and length, wrapping round the circle. */
  readonly start: number;
  readonly length: number;
}

/** Runs of set lines at least MIN_ARC_LINES long, wrapping round 360°. */
export function arcsOf(frame: number, lines: Uint8Array): Arc[] {
  const n = lines.length;
  let begin = 0;
  while (begin < n && lines[begin] === 1) begin++;
  if (begin === n) return [{ frame, start: 0, length: n }];
  const arcs: Arc[] = [];
  let k = 0;
  while (k < n) {
    const line = (begin + k) % n;
    if (lines[line] !== 1) {
      k++;
      continue;
    }
    let length = 0;
    while (k + length < n && lines[(begin + k + length) % n] === 1) length++;
    if (length >= MIN_ARC_LINES) arcs.push({ frame, start: line, length });
    k += length;
  }
  return arcs;
}

function overlaps(a: Arc, b: Arc): boolean {
  for (let i = 0; i < a.length; i++) {
    const line = (a.start + i) % LINE_COUNT;
    const offset = (((line - b.start) % LINE_COUNT) + LINE_COUNT) % LINE_COUNT;
    if (offset < b.length) return true;
  }
  return false;
}

/** Regions of the per-frame malapposed lines (null: the frame has no stent border or was not read). */
export function malappositionRegions(linesByFrame: readonly (Uint8Array | null)[], framesPerMm: number): MalappositionRegion[] {
  const arcs: Arc[] = [];
  linesByFrame.forEach((lines, frame) => {
    if (lines !== null) arcs.push(...arcsOf(frame, lines));
  });
  const parent = arcs.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const maxGap = Math.max(1, Math.round(MAX_FRAME_GAP_MM * framesPerMm));
  for (let i = 0; i < arcs.length; i++) {
    for (let j = i - 1; j >= 0 && arcs[i]!.frame - arcs[j]!.frame <= maxGap; j--) {
      if (arcs[j]!.frame === arcs[i]!.frame || !overlaps(arcs[i]!, arcs[j]!)) continue;
      parent[root(j)] = root(i);
    }
  }
  const groups = new Map<number, Arc[]>();
  arcs.forEach((arc, i) => {
    const r = root(i);
    groups.set(r, [...(groups.get(r) ?? []), arc]);
  });
  const regions: MalappositionRegion[] = [];
  for (const group of groups.values()) {
    const firstFrame = Math.min(...group.map((a) => a.frame));
    const lastFrame = Math.max(...group.map((a) => a.frame));
    const lengthMm = (lastFrame - firstFrame + 1) / framesPerMm;
    const widest = group.reduce((best, a) => (a.length > best.length ? a : best));
    if (lengthMm < MIN_REGION_MM || (widest.length * 360) / LINE_COUNT < MIN_REGION_ARC_DEG) continue;
    regions.push({
      firstFrame,
      lastFrame,
      lengthMm,
      maxArcDeg: (widest.length * 360) / LINE_COUNT,
      maxArcFrame: widest.frame,
      angleRad: (((widest.start + widest.length / 2) % LINE_COUNT) * 2 * Math.PI) / LINE_COUNT,
    });
  }
  return mergedRegions(regions.sort((a, b) => a.firstFrame - b.firstFrame), maxGap, framesPerMm);
}

/** Regions that touch along the pullback (within `maxGap` frames) and whose widest arcs meet are one region. */
function mergedRegions(regions: MalappositionRegion[], maxGap: number, framesPerMm: number): MalappositionRegion[] {
  const out = regions.slice();
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < out.length && !merged; i++) {
      for (let j = i + 1; j < out.length && !merged; j++) {
        const a = out[i]!;
        const b = out[j]!;
        const near = { ...a, firstFrame: a.firstFrame - maxGap, lastFrame: a.lastFrame + maxGap };
        if (!regionsMeet(near, b)) continue;
        const wider = a.maxArcDeg >= b.maxArcDeg ? a : b;
        const firstFrame = Math.min(a.firstFrame, b.firstFrame);
        const lastFrame = Math.max(a.lastFrame, b.lastFrame);
        out.splice(j, 1);
        out[i] = { ...wider, firstFrame, lastFrame, lengthMm: (lastFrame - firstFrame + 1) / framesPerMm };
        merged = true;
      }
    }
  }
  return out;
}

/** Whether two regions overlap along the pullback and around it (their widest arcs meet): a detection finds a true region. */
export function regionsMeet(a: MalappositionRegion, b: MalappositionRegion): boolean {
  if (a.lastFrame < b.firstFrame || b.lastFrame < a.firstFrame) return false;
  const apart = Math.abs(((((a.angleRad - b.angleRad) % (2 * Math.PI)) + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
  return apart <= ((a.maxArcDeg + b.maxArcDeg) / 2) * (Math.PI / 180);
}
