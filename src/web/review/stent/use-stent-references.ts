/**
 * The stent's references as the clinician left them (issue 28): by default the analysis's own
 * (stent-analysis.ts), each movable by hand (drag on the plot, arrow keys) and put back; the
 * figures (expansion, flags) computed again from them (domain/stent/stent-references.ts). Kept
 * across readings of the stent: a reference is put back beyond its edge if the stent moved.
 * With the review's annotation store, the moved references live in its manifest (`stentReferences`):
 * saved with Save, kept in drafts across reloads, undone and redone as any other hand edit.
 */
import { useCallback, useMemo, useState, useSyncExternalStore } from 'react';
import { setStentReferenceSlice, type StentReferenceSlices } from '../../../domain/annotations/stent-reference-slices.ts';
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

/** What the hook reads and writes of the annotation store (manifest/annotation-store.ts). */
export interface StentReferencesStore<M extends { readonly stentReferences?: StentReferenceSlices | undefined }> {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => { readonly manifest: M; readonly history: { readonly present: M } };
  /** A method, so that the store's own manifest type (with every other field) is accepted. */
  commit(next: M): void;
}

type AnyStore = StentReferencesStore<{ readonly stentReferences?: StentReferenceSlices | undefined }>;
const NO_SUBSCRIBE = () => () => {};

/** The manifest's moved references, 1-based slices, as 0-based frames (the same object while they do not change). */
function useStoredMoves(store: AnyStore | null): MovedReferences | null {
  const slices = useSyncExternalStore(store?.subscribe ?? NO_SUBSCRIBE, () => store?.getSnapshot().manifest.stentReferences);
  return useMemo(() => (store === null ? null : { distal: slices?.distal === undefined ? null : slices.distal - 1, proximal: slices?.proximal === undefined ? null : slices.proximal - 1 }), [store, slices]);
}

export function useStentReferences(detection: StentDetection | null, areas: BorderAreas, store: AnyStore | null = null): StentReferences {
  const [localMoves, setLocalMoves] = useState<MovedReferences>(NO_MOVED_REFERENCES);
  const storedMoves = useStoredMoves(store);
  const moved = storedMoves ?? localMoves;
  const setMoved = useCallback(
    (change: (m: MovedReferences) => MovedReferences) => {
      if (store === null) {
        setLocalMoves(change);
        return;
      }
      const present = store.getSnapshot().history.present;
      const slices = present.stentReferences;
      const before: MovedReferences = { distal: slices?.distal === undefined ? null : slices.distal - 1, proximal: slices?.proximal === undefined ? null : slices.proximal - 1 };
      const after = change(before);
      if (after === before) return;
      let next = present;
      for (const side of ['distal', 'proximal'] as const) next = setStentReferenceSlice(next, side, after[side] === null ? null : after[side] + 1);
      store.commit(next);
    },
    [store],
  );
  const figures = useMemo(() => (detection === null ? null : figuresWithReferences(detection, areas, moved)), [detection, areas, moved]);
  const segment = detection?.segment ?? null;
  const put = useCallback((side: ReferenceSide, frame: number | null) => setMoved((m) => (m[side] === frame ? m : { ...m, [side]: frame })), [setMoved]);
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
