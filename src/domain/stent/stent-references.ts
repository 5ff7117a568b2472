/**
 * The stent's two references moved by hand (issue 28): expansion is MSA ÷ the mean (and ÷ the
 * distal) reference lumen area, and the clinician may disagree with the frames taken by default
 * (the lesion results' references where they lie beyond the stent, else the largest lumen beyond
 * each edge). A moved reference stays on its own side of the stent (the distal one before the
 * distal edge, the proximal one after the proximal edge) and on a frame with a lumen area, so the
 * figure it gives is always a measured one; the figures say which reference was moved by hand.
 *
 * Pure: frames are 0-based indices, as in stent-analysis.ts.
 */
import { stentFigures, type BorderAreas, type StentDetection, type StentFigures } from './stent-analysis.ts';
import type { StentSegment } from './stent-segment.ts';

export type ReferenceSide = 'distal' | 'proximal';
export const REFERENCE_SIDES: readonly ReferenceSide[] = ['distal', 'proximal'];

/** The frame each reference was moved to by hand; null where it was not (the default holds). */
export interface MovedReferences {
  readonly distal: number | null;
  readonly proximal: number | null;
}

export const NO_MOVED_REFERENCES: MovedReferences = { distal: null, proximal: null };

/** The frames a reference may lie on: beyond its edge, within the pullback (null: none, the edge is the pullback's end). */
export function referenceRange(side: ReferenceSide, segment: StentSegment, frameCount: number): { first: number; last: number } | null {
  const range = side === 'distal' ? { first: 0, last: segment.distalFrame - 1 } : { first: segment.proximalFrame + 1, last: frameCount - 1 };
  return range.first <= range.last ? range : null;
}

function measurable(areas: ArrayLike<number> | undefined, frame: number): boolean {
  const v = areas?.[frame];
  return v !== undefined && Number.isFinite(v) && v > 0;
}

/**
 * The frame a reference goes to when the clinician puts it at `frame`: the nearest frame to it on
 * the reference's side that has a lumen area (the nearer one towards the stent on a tie), or null
 * when no frame there has one.
 */
export function referenceFrameNear(side: ReferenceSide, frame: number, segment: StentSegment, areas: Pick<BorderAreas, 'frameCount' | 'lumenAreasMm2'>): number | null {
  const range = referenceRange(side, segment, areas.frameCount);
  if (range === null) return null;
  const wanted = Math.min(range.last, Math.max(range.first, Math.round(frame)));
  const towardStent = side === 'distal' ? 1 : -1;
  for (let d = 0; d <= range.last - range.first; d++) {
    for (const f of [wanted + towardStent * d, wanted - towardStent * d]) {
      if (f >= range.first && f <= range.last && measurable(areas.lumenAreasMm2, f)) return f;
    }
  }
  return null;
}

/**
 * The next frame with a lumen area `steps` frames or more from `from` in the direction of its sign
 * (a key press: one slice, or ten with Shift), kept on the reference's side; `from` itself when
 * there is none further that way.
 */
export function steppedReferenceFrame(side: ReferenceSide, from: number, steps: number, segment: StentSegment, areas: Pick<BorderAreas, 'frameCount' | 'lumenAreasMm2'>): number {
  const range = referenceRange(side, segment, areas.frameCount);
  if (range === null || steps === 0) return from;
  const direction = Math.sign(steps);
  for (let f = from + steps; f >= range.first && f <= range.last; f += direction) {
    if (measurable(areas.lumenAreasMm2, f)) return f;
  }
  // Past the end of the side: the last measurable frame that way, if it is further than `from`.
  for (let f = direction > 0 ? range.last : range.first; direction > 0 ? f > from : f < from; f -= direction) {
    if (measurable(areas.lumenAreasMm2, f)) return f;
  }
  return from;
}

/**
 * The stent's figures with the references moved by hand where they were: a moved reference is
 * kept to its side and to a measured frame (referenceFrameNear), and named in `movedReferences`.
 * `areas.referenceFrames` are the frames taken otherwise (the lesion results' references).
 */
export function figuresWithReferences(detection: StentDetection, areas: BorderAreas, moved: MovedReferences): StentFigures {
  const segment = detection.segment;
  if (segment === null) return stentFigures(detection, areas);
  const placed = (side: ReferenceSide): number | null => (moved[side] === null ? null : referenceFrameNear(side, moved[side], segment, areas));
  const distal = placed('distal');
  const proximal = placed('proximal');
  const defaults = areas.referenceFrames ?? { distal: null, proximal: null };
  const figures = stentFigures(detection, { ...areas, referenceFrames: { distal: distal ?? defaults.distal, proximal: proximal ?? defaults.proximal } });
  // A placed frame lies beyond its edge and has a lumen area, so stentFigures keeps it.
  const movedReferences = REFERENCE_SIDES.filter((side) => (side === 'distal' ? distal : proximal) !== null);
  return { ...figures, movedReferences };
}

/** How a reference moved by hand is named wherever its figure is shown (slice = frame + 1, as the review counts). */
export function movedReferenceText(side: ReferenceSide, frame: number): string {
  return `${side} reference moved by hand to slice ${frame + 1}`;
}

/** Whether a figure's reference on `side` was moved by hand. */
export function isMovedReference(figures: Pick<StentFigures, 'movedReferences'>, side: ReferenceSide): boolean {
  return figures.movedReferences?.includes(side) ?? false;
}
