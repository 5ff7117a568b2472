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
import { wallGapMm, type TissueBits } from './wall-gap.ts';

/** Consensus: a strut more than this from the wall is malapposed. */
export const MALAPPOSITION_MM = 0.4;
/** An arc narrower than this (degrees, one line a degree) is speckle, not a region. */
const MIN_ARC_LINES = 10;
/** Lines this close to a strut are in its shadow: their wall is read from the lines beside. */
const SHADOW_HALF_LINES = 3;
/** A line whose wall is hidden takes its neighbours' gap across at most this many lines. */
const MAX_FILL_LINES = 20;
/** Arcs this many frames apart still join one region (a frame whose wall a shadow hides). */
const MAX_FRAME_GAP_MM = 0.3;
/** A region shorter than this along the pullback is one frame's noise. */
const MIN_REGION_MM = 0.25;

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
export function malapposedLines(border: StentBorder, tissue: TissueBits, struts: readonly Strut[]): Uint8Array {
  const gaps = new Float64Array(LINE_COUNT);
  for (let a = 0; a < LINE_COUNT; a++) gaps[a] = wallGapMm(tissue, a, stentRadiusAt(border, (2 * Math.PI * a) / LINE_COUNT));
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
  return lines;
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
    if (lengthMm < MIN_REGION_MM) continue;
    const widest = group.reduce((best, a) => (a.length > best.length ? a : best));
    regions.push({
      firstFrame,
      lastFrame,
      lengthMm,
      maxArcDeg: (widest.length * 360) / LINE_COUNT,
      maxArcFrame: widest.frame,
      angleRad: (((widest.start + widest.length / 2) % LINE_COUNT) * 2 * Math.PI) / LINE_COUNT,
    });
  }
  return regions.sort((a, b) => a.firstFrame - b.firstFrame);
}

/** Whether two regions overlap along the pullback and around it (their widest arcs meet): a detection finds a true region. */
export function regionsMeet(a: MalappositionRegion, b: MalappositionRegion): boolean {
  if (a.lastFrame < b.firstFrame || b.lastFrame < a.firstFrame) return false;
  const apart = Math.abs(((((a.angleRad - b.angleRad) % (2 * Math.PI)) + 3 * Math.PI) % (2 * Math.PI)) - Math.PI);
  return apart <= ((a.maxArcDeg + b.maxArcDeg) / 2) * (Math.PI / 180);
}
