/**
 * The stent's references as the clinician left them (issue 28): by default the analysis's own
 * (stent-analysis.ts), each movable by hand (drag on the plot, arrow keys) and put back; the
 * figures (expansion, flags) computed again from them (domain/stent/stent-references.ts). Kept
 * across readings of the stent: a reference is put back beyond its edge if the stent moved.
 */
import { useCallback, useMemo, useState } from 'react';
import type { BorderAreas, StentDetection, StentFigures } from '../../../domain/stent/stent-analysis.ts';
import {
  figuresWithReferences,
  NO_MOVED_REFERENCES,
  referenceFrameNear,
  steppedReferenceFrame,
  type MovedReferences,
  type ReferenceSide,
} from '../../../domain/stent/stent-references.ts';

export interface StentReferences {
  /** The figures with the references where they are now (null before the stent is read). */
  readonly figures: StentFigures | null;
  /** To (the measured slice nearest) a 1-based slice beyond the reference's edge. */
  readonly moveReference: (side: ReferenceSide, slice: number) => void;
  /** By this many slices, to the next measured one that way. */
  readonly stepReference: (side: ReferenceSide, steps: number) => void;
  /** Back where the analysis takes it by default. */
  readonly resetReference: (side: ReferenceSide) => void;
}

export function useStentReferences(detection: StentDetection | null, areas: BorderAreas): StentReferences {
  const [moved, setMoved] = useState<MovedReferences>(NO_MOVED_REFERENCES);
  const figures = useMemo(() => (detection === null ? null : figuresWithReferences(detection, areas, moved)), [detection, areas, moved]);
  const segment = detection?.segment ?? null;
  const put = useCallback((side: ReferenceSide, frame: number | null) => setMoved((m) => (m[side] === frame ? m : { ...m, [side]: frame })), []);
  const moveReference = useCallback(
    (side: ReferenceSide, slice: number) => {
      const frame = segment === null ? null : referenceFrameNear(side, slice - 1, segment, areas);
      if (frame !== null) put(side, frame);
    },
    [segment, areas, put],
  );
  const from = { distal: figures?.references.distal?.frame, proximal: figures?.references.proximal?.frame };
  const { distal: fromDistal, proximal: fromProximal } = from;
  const stepReference = useCallback(
    (side: ReferenceSide, steps: number) => {
      const start = side === 'distal' ? fromDistal : fromProximal;
      if (segment !== null && start !== undefined) put(side, steppedReferenceFrame(side, start, steps, segment, areas));
    },
    [segment, areas, fromDistal, fromProximal, put],
  );
  const resetReference = useCallback((side: ReferenceSide) => put(side, null), [put]);
  return { figures, moveReference, stepReference, resetReference };
}
