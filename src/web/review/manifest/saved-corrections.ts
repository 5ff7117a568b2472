import { useMemo, useSyncExternalStore } from 'react';
import type { AnnotationManifest } from '../../../domain/annotations/manifest.ts';
import type { AnnotationSnapshot } from './annotation-store.ts';

/**
 * Whether the figures the clinician's saved corrections change may be shown yet. The saved
 * annotations carry the hand-corrected lumen and vessel borders (key frames), the stent borders,
 * the moved stent references and the calcium arcs set by hand; every figure the review computes
 * (the MLA and the results block, the plot, the frame's readout and borders, the stent, the
 * calcium, the exports) may change with them. Until they are in, those figures are held back:
 * a clinician must never read, for a moment, the detection's MLA where the saved review says another.
 *
 * When they could not be loaded the figures stay held back too (with the reason and a Retry), rather
 * than shown labelled "without saved corrections":
 * - the clinician opened this record to read the review as it was saved; a number that review has
 *   overruled (a corrected MLA, a stent measured on its corrected borders) is the wrong number,
 *   whatever its label, and a figure on screen is a figure copied into a note or a report;
 * - the review cannot be corrected again meanwhile either (the annotation store takes no edit
 *   until a version is loaded), so the uncorrected figures could not be put right on the spot;
 * - a failed load is a passing network or server fault: Retry is one click away, beside the reason.
 */
export type CorrectionsGate = { readonly status: 'loading' } | { readonly status: 'ready' } | { readonly status: 'failed'; readonly error: string };

/** Said in place of the held-back figures while the saved annotations are on their way. */
export const CORRECTIONS_LOADING_TEXT = 'Loading saved corrections…';
/** Said in place of the held-back figures when the saved annotations could not be loaded. */
export const CORRECTIONS_FAILED_TEXT = 'Figures held back: the saved corrections could not be loaded';

const LOADING: CorrectionsGate = Object.freeze({ status: 'loading' });
const READY: CorrectionsGate = Object.freeze({ status: 'ready' });

/** The gate for the annotation store's snapshot: open only once a saved version (or none) is loaded. */
export function correctionsGate(snapshot: Pick<AnnotationSnapshot, 'status' | 'error'>): CorrectionsGate {
  if (snapshot.status === 'ready') return READY;
  if (snapshot.status === 'error') return { status: 'failed', error: snapshot.error ?? 'unknown error' };
  return LOADING;
}

/** What the held-back figures' place says, or null once they may be shown. */
export function heldFiguresText(gate: CorrectionsGate): string | null {
  if (gate.status === 'loading') return CORRECTIONS_LOADING_TEXT;
  if (gate.status === 'failed') return CORRECTIONS_FAILED_TEXT;
  return null;
}

/**
 * The manifest's corrected borders once the saved annotations are in, or null while the figures
 * must be held back (the analysis is then not made at all, so nothing downstream can show it).
 */
export function savedContourCorrections(
  snapshot: Pick<AnnotationSnapshot, 'status' | 'manifest'>,
  none: NonNullable<AnnotationManifest['contours']>,
): NonNullable<AnnotationManifest['contours']> | null {
  return snapshot.status === 'ready' ? (snapshot.manifest.contours ?? none) : null;
}

interface GateSource {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => Pick<AnnotationSnapshot, 'status' | 'error'>;
}

const NO_SUBSCRIBE = () => () => {};

/** The gate, re-rendering only when it changes (not on every edit of the manifest). */
export function useCorrectionsGate(store: GateSource | null | undefined): CorrectionsGate {
  // Without a store (a test's bare component) nothing is loaded, so nothing is held back.
  const status = useSyncExternalStore(store?.subscribe ?? NO_SUBSCRIBE, () => store?.getSnapshot().status ?? 'ready');
  const error = useSyncExternalStore(store?.subscribe ?? NO_SUBSCRIBE, () => store?.getSnapshot().error ?? null);
  return useMemo(() => correctionsGate({ status, error }), [status, error]);
}
