import { useSyncExternalStore } from 'react';
import type { StentBorderCorrection } from '../../../domain/annotations/stent-corrections.ts';

/** What the hook reads of the annotation store (manifest/annotation-store.ts): the manifest being edited. */
export interface StentCorrectionsSource {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => { readonly manifest: { readonly stentBorders?: readonly StentBorderCorrection[] | undefined } };
}

/** One empty list for every manifest without stent corrections, so that its absence reads as no change. */
const NONE: readonly StentBorderCorrection[] = [];
const NO_SUBSCRIBE = () => () => {};

/**
 * The stent borders corrected by hand in the manifest being edited (issue 28): a new list only when
 * they change, so that a ruler drag or a note does not measure the stent again, while a drag, an
 * undo, a redo or a restored draft does.
 */
export function useStentCorrections(store: StentCorrectionsSource | null | undefined): readonly StentBorderCorrection[] {
  return useSyncExternalStore(store?.subscribe ?? NO_SUBSCRIBE, () => store?.getSnapshot().manifest.stentBorders ?? NONE);
}
