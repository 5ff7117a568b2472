/**
 * The stent analysis of a pullback (issue 28), with the consensus definitions: the stented segment
 * and its edges, the minimal stent area (MSA) and its frame, expansion = MSA ÷ the mean reference
 * lumen area and MSA ÷ the distal reference lumen area, malapposed regions (struts more than 0.4 mm
 * off the wall) with arc and length, and the plaque burden within 5 mm beyond each edge; flagged
 * against the criteria of IVUS-XPL / ULTIMATE / OPTIMIZE-PCI (expansion under 80 % of the mean and
 * under 90 % of the distal reference, edge plaque burden of 50 % or more, malapposition).
 *
 * Pure: it reads each frame's reading (strut-detection.ts) and, for the references and the edges,
 * the per-frame lumen and vessel areas of the contour analysis (NaN where a frame has no border).
 */
import { malapposedLines, malappositionRegions, type MalappositionRegion } from './malapposition.ts';
import { findStentSegment, stentBorders, type StentFrameResult, type StentSegment } from './stent-segment.ts';
import type { StentFrameReading } from './strut-detection.ts';

/** Edge segments reach this far beyond each stent edge. */
export const EDGE_SEGMENT_MM = 5;
/** Without a reference given, the largest lumen within this distance beyond an edge is taken. */
export const REFERENCE_SEARCH_MM = 10;
export const EXPANSION_MEAN_LIMIT = 0.8;
export const EXPANSION_DISTAL_LIMIT = 0.9;
export const EDGE_BURDEN_LIMIT_PERCENT = 50;

export interface FrameArea {
  readonly frame: number;
  readonly areaMm2: number;
}

export interface EdgeBurden {
  readonly edge: 'distal' | 'proximal';
  readonly firstFrame: number;
  readonly lastFrame: number;
  /** The largest plaque burden over the edge segment, 100 · (EEM − lumen) / EEM, and its frame. */
  readonly maxBurdenPercent: number;
  readonly frame: number;
}

export type StentFlag = 'expansion-below-80-mean' | 'expansion-below-90-distal' | 'edge-burden-distal' | 'edge-burden-proximal' | 'malapposition';

/** What the struts alone tell: the segment, each frame's border, the MSA and the malapposed regions. */
export interface StentDetection {
  readonly segment: StentSegment | null;
  /** By frame index: the stent border and area, null outside the segment. */
  readonly frames: readonly (StentFrameResult | null)[];
  readonly msa: FrameArea | null;
  readonly malapposition: readonly MalappositionRegion[];
}

/**
 * What the lumen and vessel borders add (they may be corrected by hand, and the references moved,
 * so these are computed again from the detection whenever they change).
 */
export interface StentFigures {
  readonly references: { readonly distal: FrameArea | null; readonly proximal: FrameArea | null };
  /** MSA ÷ mean reference lumen area, and ÷ distal reference lumen area (fractions), null where a figure is missing. */
  readonly expansionMean: number | null;
  readonly expansionDistal: number | null;
  readonly edges: { readonly distal: EdgeBurden | null; readonly proximal: EdgeBurden | null };
  readonly flags: readonly StentFlag[];
  /** The references the clinician moved by hand (stent-references.ts); none when absent. */
  readonly movedReferences?: readonly ('distal' | 'proximal')[];
}

export type StentAnalysis = StentDetection & StentFigures;

/** The lumen and vessel figures the stent's figures read, per frame (NaN where a frame has no border). */
export interface BorderAreas {
  readonly frameCount: number;
  readonly framesPerMm: number;
  readonly lumenAreasMm2?: ArrayLike<number>;
  readonly vesselAreasMm2?: ArrayLike<number>;
  /**
   * Reference frames (the clinician's, or the lesion results' by default). A reference inside the
   * stent, or on the wrong side of it, is replaced by the largest lumen within REFERENCE_SEARCH_MM
   * beyond that edge.
   */
  readonly referenceFrames?: { readonly distal: number | null; readonly proximal: number | null };
}

export interface StentAnalysisInput extends Omit<BorderAreas, 'frameCount'> {
  /** Per frame (null: the frame was not read, or could not be). */
  readonly readings: readonly (StentFrameReading | null)[];
}

/** The whole analysis: the detection from the readings, the figures from the border areas. */
export function analyseStent(input: StentAnalysisInput): StentAnalysis {
  const detection = detectStent(input.readings, input.framesPerMm);
  return { ...detection, ...stentFigures(detection, { ...input, frameCount: input.readings.length }) };
}

export function detectStent(readings: readonly (StentFrameReading | null)[], framesPerMm: number): StentDetection {
  const strutsByFrame = readings.map((r) => r?.struts ?? null);
  const segment = findStentSegment(strutsByFrame, framesPerMm);
  if (segment === null) return { segment: null, frames: readings.map(() => null), msa: null, malapposition: [] };
  return measureStent(readings, segment, stentBorders(strutsByFrame, segment, framesPerMm), framesPerMm);
}

/** The MSA and the malapposed regions of a segment whose frames' borders are known (detected, or corrected by hand: corrected-stent.ts). */
export function measureStent(readings: readonly (StentFrameReading | null)[], segment: StentSegment, frames: readonly (StentFrameResult | null)[], framesPerMm: number): StentDetection {
  let msa: FrameArea | null = null;
  for (let frame = 0; frame < frames.length; frame++) {
    const area = frames[frame]?.areaMm2;
    if (area != null && (msa === null || area < msa.areaMm2)) msa = { frame, areaMm2: area };
  }

  const lines = frames.map((result, frame) => {
    const reading = readings[frame];
    if (result?.border == null || reading == null) return null;
    return malapposedLines(result.border, reading.wall, reading.struts);
  });
  return { segment, frames, msa, malapposition: malappositionRegions(lines, framesPerMm) };
}

/** Expansion against the references, edge plaque burden and the flags, from a detection and the border areas. */
export function stentFigures(detection: StentDetection, areas: BorderAreas): StentFigures {
  const { segment, malapposition } = detection;
  if (segment === null) {
    return { references: { distal: null, proximal: null }, expansionMean: null, expansionDistal: null, edges: { distal: null, proximal: null }, flags: [] };
  }
  const references = stentReferences(areas, segment);
  const found = detection.msa;
  const meanReference =
    references.distal && references.proximal ? (references.distal.areaMm2 + references.proximal.areaMm2) / 2 : (references.distal ?? references.proximal)?.areaMm2;
  const expansionMean = found !== null && meanReference !== undefined && meanReference > 0 ? found.areaMm2 / meanReference : null;
  const expansionDistal = found !== null && references.distal !== null && references.distal.areaMm2 > 0 ? found.areaMm2 / references.distal.areaMm2 : null;
  const edges = edgeBurdens(areas, segment);

  const flags: StentFlag[] = [];
  if (expansionMean !== null && expansionMean < EXPANSION_MEAN_LIMIT) flags.push('expansion-below-80-mean');
  if (expansionDistal !== null && expansionDistal < EXPANSION_DISTAL_LIMIT) flags.push('expansion-below-90-distal');
  if (edges.distal !== null && edges.distal.maxBurdenPercent >= EDGE_BURDEN_LIMIT_PERCENT) flags.push('edge-burden-distal');
  if (edges.proximal !== null && edges.proximal.maxBurdenPercent >= EDGE_BURDEN_LIMIT_PERCENT) flags.push('edge-burden-proximal');
  if (malapposition.length > 0) flags.push('malapposition');
  return { references, expansionMean, expansionDistal, edges, flags };
}

function areaAt(areas: ArrayLike<number> | undefined, frame: number): number | null {
  const v = areas?.[frame];
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : null;
}

/** The reference frames: the given ones where they lie beyond their edge, else the largest lumen beyond it. */
export function stentReferences(input: BorderAreas, segment: StentSegment): StentFigures['references'] {
  const areas = input.lumenAreasMm2;
  const n = input.frameCount;
  const span = Math.round(REFERENCE_SEARCH_MM * input.framesPerMm);
  const largest = (from: number, to: number): FrameArea | null => {
    let best: FrameArea | null = null;
    for (let f = Math.max(0, from); f <= Math.min(n - 1, to); f++) {
      const a = areaAt(areas, f);
      if (a !== null && (best === null || a > best.areaMm2)) best = { frame: f, areaMm2: a };
    }
    return best;
  };
  const given = (frame: number | null | undefined, beyond: (f: number) => boolean): FrameArea | null => {
    if (frame === null || frame === undefined || !beyond(frame)) return null;
    const a = areaAt(areas, frame);
    return a === null ? null : { frame, areaMm2: a };
  };
  const distal =
    given(input.referenceFrames?.distal, (f) => f < segment.distalFrame) ?? largest(segment.distalFrame - span, segment.distalFrame - 1);
  const proximal =
    given(input.referenceFrames?.proximal, (f) => f > segment.proximalFrame) ?? largest(segment.proximalFrame + 1, segment.proximalFrame + span);
  return { distal, proximal };
}

/** The largest plaque burden within EDGE_SEGMENT_MM beyond each edge (null where no frame there has both borders). */
export function edgeBurdens(input: BorderAreas, segment: StentSegment): StentFigures['edges'] {
  const n = input.frameCount;
  const span = Math.max(1, Math.round(EDGE_SEGMENT_MM * input.framesPerMm));
  const burden = (edge: EdgeBurden['edge'], from: number, to: number): EdgeBurden | null => {
    const first = Math.max(0, from);
    const last = Math.min(n - 1, to);
    let best: EdgeBurden | null = null;
    for (let f = first; f <= last; f++) {
      const lumen = areaAt(input.lumenAreasMm2, f);
      const vessel = areaAt(input.vesselAreasMm2, f);
      if (lumen === null || vessel === null || vessel <= lumen) continue;
      const percent = (100 * (vessel - lumen)) / vessel;
      if (best === null || percent > best.maxBurdenPercent) best = { edge, firstFrame: first, lastFrame: last, maxBurdenPercent: percent, frame: f };
    }
    return best;
  };
  return {
    distal: burden('distal', segment.distalFrame - span, segment.distalFrame - 1),
    proximal: burden('proximal', segment.proximalFrame + 1, segment.proximalFrame + span),
  };
}
