import { createContext, use, useCallback, useSyncExternalStore } from 'react';
import { AnnotationStore, hasUnsavedChanges } from '../manifest/annotation-store.ts';

/** The open record's annotations and their save, as the toolbar and the page use them. */
export interface AnnotationSession {
  store: AnnotationStore;
  patientId: string;
  recordId: string;
  /** True when the edits were stored. */
  save: () => Promise<boolean>;
  reload: () => void;
  /** Asks Save / Discard / Stay when there are unsaved edits (leave-guard.ts); true when the clinician may leave. */
  confirmLeave: () => Promise<boolean>;
}

/** Provided by the review session's provider, which owns the annotations (review/session). */
export const AnnotationSessionContext = createContext<AnnotationSession | null>(null);

/** The open record's annotation session, or null outside a review (the toolbar asks on every screen). */
export function useAnnotationSession(): AnnotationSession | null {
  return use(AnnotationSessionContext);
}

const NO_STORE = new AnnotationStore();

/** Whether the Save button has something to do, and whether it is busy. */
export function useSaveState(session: AnnotationSession | null): { ready: boolean; dirty: boolean; saving: boolean } {
  const store = session?.store ?? NO_STORE;
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return { ready: session !== null && snapshot.status === 'ready', dirty: hasUnsavedChanges(snapshot), saving: snapshot.saving };
}

/**
 * Asks before leaving a review with unsaved annotations (Save / Discard / Stay); answers true at
 * once when there is nothing to lose (or no review open). The toolbar navigates only on true.
 */
export function useConfirmLeave(): () => Promise<boolean> {
  const session = useAnnotationSession();
  return useCallback(async () => (session ? session.confirmLeave() : true), [session]);
}
