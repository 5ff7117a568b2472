import { createContext, use, useCallback, useSyncExternalStore } from 'react';
import { useConfirm } from '../../ui/confirm.tsx';
import { AnnotationStore, hasUnsavedChanges } from '../manifest/annotation-store.ts';
import { LEAVE_QUESTION } from './leave-guard.ts';

/** The open record's annotations and their save, as the toolbar and the page use them. */
export interface AnnotationSession {
  store: AnnotationStore;
  patientId: string;
  recordId: string;
  save: () => Promise<void>;
  reload: () => void;
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
 * Asks before leaving a review with unsaved annotations; answers true at once when there is
 * nothing to lose (or no review open).
 */
export function useConfirmLeave(): () => Promise<boolean> {
  const session = useAnnotationSession();
  const confirm = useConfirm();
  return useCallback(async () => {
    if (!session || !hasUnsavedChanges(session.store.getSnapshot())) return true;
    return confirm(LEAVE_QUESTION);
  }, [session, confirm]);
}
