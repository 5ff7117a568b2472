/**
 * The stented segment and the stent border of each of its frames (issue 28), from the struts each
 * frame's reading found. A frame is stented when the frames around it show struts steadily (a stray
 * bright echo with a shadow in native vessel does not make a stent); the segment is the longest run
 * of stented frames, short interruptions (a frame the guidewire darkens) bridged. Its first frame is
 * the distal edge (frame 0 is the most distal), its last the proximal edge.
 */
import { fitStentBorder, largestGapRad, stentBorderAreaMm2, type StentBorder } from './stent-border.ts';
import type { Strut } from './strut-detection.ts';

/** Struts a frame shows on average, over STENTED_WINDOW_MM around it, for it to be stented. */
const MIN_STRUTS_PER_FRAME = 1.5;
const STENTED_WINDOW_MM = 0.25;
/** An edge frame shows at least this many struts itself. */
const MIN_EDGE_STRUTS = 2;
/** Runs of stented frames closer than this are one stent. */
const BRIDGE_MM = 1;
/** The border of a frame goes through the struts of the frames this close to it (within the segment)... */
export const BORDER_WINDOW_MM = 0.2;
/** ...or this close, where those leave an arc this wide without a strut (struts of a cell converge in pairs). */
const WIDE_WINDOW_MM = 0.5;
const MAX_NARROW_GAP_RAD = (5 * Math.PI) / 9;
/** A frame whose area is this far off the median of the frames around it has a border its struts do not hold. */
const MAX_AREA_DEVIATION = 0.08;
const MEDIAN_WINDOW_MM = 0.5;

export interface StentSegment {
  /** First stented frame: the distal edge. */
  readonly distalFrame: number;
  /** Last stented frame: the proximal edge. */
  readonly proximalFrame: number;
  readonly lengthMm: number;
}

/** The stented segment of per-frame struts (null: frame not read), or null without a stent. */
export function findStentSegment(strutsByFrame: readonly (readonly Strut[] | null)[], framesPerMm: number): StentSegment | null {
  const n = strutsByFrame.length;
  const half = Math.max(0, Math.round(STENTED_WINDOW_MM * framesPerMm));
  const stented = new Uint8Array(n);
  for (let f = 0; f < n; f++) {
    let sum = 0;
    let read = 0;
    for (let g = Math.max(0, f - half); g <= Math.min(n - 1, f + half); g++) {
      const struts = strutsByFrame[g];
      if (struts === null || struts === undefined) continue;
      sum += struts.length;
      read++;
    }
    stented[f] = read > 0 && sum / read >= MIN_STRUTS_PER_FRAME ? 1 : 0;
  }
  const bridge = Math.round(BRIDGE_MM * framesPerMm);
  let best: { first: number; last: number } | null = null;
  let current: { first: number; last: number } | null = null;
  for (let f = 0; f < n; f++) {
    if (stented[f] !== 1) continue;
    if (current !== null && f - current.last <= bridge) current.last = f;
    else current = { first: f, last: f };
    if (best === null || current.last - current.first > best.last - best.first) best = { ...current };
  }
  if (best === null) return null;
  // The window's average reaches past the stent's ends: the edges are the outermost frames that show struts of their own.
  const own = (f: number): number => strutsByFrame[f]?.length ?? 0;
  let first = best.first;
  let last = best.last;
  while (first < last && own(first) < MIN_EDGE_STRUTS) first++;
  while (last > first && own(last) < MIN_EDGE_STRUTS) last--;
  if (last === first) return null;
  return { distalFrame: first, proximalFrame: last, lengthMm: (last - first) / framesPerMm };
}

/** One frame's stent border and area (null where its struts cannot carry a border: not measurable). */
export interface StentFrameResult {
  readonly border: StentBorder | null;
  readonly areaMm2: number | null;
}

/**
 * Borders of the segment's frames, by frame index (frames outside the segment get null). A border
 * whose area stands out from its neighbours' (a frame where the struts left too much to guess) is
 * dropped: that frame is not measurable, rather than a false MSA.
 */
export function stentBorders(strutsByFrame: readonly (readonly Strut[] | null)[], segment: StentSegment, framesPerMm: number): (StentFrameResult | null)[] {
  const collect = (f: number, windowMm: number): Strut[] => {
    const half = Math.max(0, Math.round(windowMm * framesPerMm));
    const struts: Strut[] = [];
    for (let g = Math.max(segment.distalFrame, f - half); g <= Math.min(segment.proximalFrame, f + half); g++) struts.push(...(strutsByFrame[g] ?? []));
    return struts;
  };
  const results = strutsByFrame.map((_, f): StentFrameResult | null => {
    if (f < segment.distalFrame || f > segment.proximalFrame) return null;
    let struts = collect(f, BORDER_WINDOW_MM);
    if (largestGapRad(struts) > MAX_NARROW_GAP_RAD) struts = collect(f, WIDE_WINDOW_MM);
    const border = fitStentBorder(struts);
    return { border, areaMm2: border === null ? null : stentBorderAreaMm2(border) };
  });
  const half = Math.max(1, Math.round(MEDIAN_WINDOW_MM * framesPerMm));
  return results.map((result, f) => {
    if (result?.areaMm2 == null) return result;
    const around: number[] = [];
    for (let g = f - half; g <= f + half; g++) {
      const area = results[g]?.areaMm2;
      if (area != null) around.push(area);
    }
    around.sort((a, b) => a - b);
    const median = around[around.length >> 1]!;
    return Math.abs(result.areaMm2 / median - 1) > MAX_AREA_DEVIATION ? { border: null, areaMm2: null } : result;
  });
}
