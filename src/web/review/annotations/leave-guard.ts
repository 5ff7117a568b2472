import type { Confirm } from '../../ui/confirm.tsx';
import { hasUnsavedChanges, type AnnotationStore } from '../manifest/annotation-store.ts';

export const LEAVE_QUESTION = {
  title: 'Leave without saving?',
  // Leaving keeps a draft in this browser (draft-store.ts), offered again when the record is opened.
  message: 'Your annotation changes on this record are not saved. This browser keeps them as a draft that you can restore when you open the record again.',
  acceptLabel: 'Leave without saving',
  rejectLabel: 'Stay',
  acceptPalette: 'red',
};

/**
 * While a record is open: closing the tab with unsaved changes asks first (the browser words the
 * question), and the browser's Back (and the toolbar's, which uses it) stays and asks.
 * Returns the removal of both listeners.
 */
export function guardUnsavedLeave(store: AnnotationStore, confirm: Confirm): () => void {
  const onBeforeUnload = (event: BeforeUnloadEvent) => {
    if (hasUnsavedChanges(store.getSnapshot())) event.preventDefault();
  };
  const here = window.location.href;
  let leaving = false;
  const onPopState = () => {
    if (leaving || !hasUnsavedChanges(store.getSnapshot())) return;
    // A history step cannot be cancelled: put the review back at once (same task, so nothing unmounts).
    window.history.pushState(window.history.state, '', here);
    void confirm(LEAVE_QUESTION).then((leave) => {
      if (!leave) return;
      leaving = true;
      window.history.back();
    });
  };
  window.addEventListener('beforeunload', onBeforeUnload);
  window.addEventListener('popstate', onPopState);
  return () => {
    window.removeEventListener('beforeunload', onBeforeUnload);
    window.removeEventListener('popstate', onPopState);
  };
}
