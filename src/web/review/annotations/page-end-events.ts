/**
 * The moments a review's unsaved edits must be kept at once, synchronously (draft-sync.ts): the
 * page is hidden (the tab may then be closed or frozen without warning) or left (a reload, a closed
 * tab, the back-forward cache); and the moments it comes back, when it may write as usual again.
 */
export interface PageEndHandlers {
  /** Hidden, or left: an IndexedDB write begun now may never finish. */
  going(): void;
  /** Left (pagehide), after `going`. */
  left(): void;
  /** Visible again. */
  shown(): void;
  /** Back from the back-forward cache (pageshow), before `shown`. */
  back(): void;
}

/** Listens to the page's visibility and its pagehide and pageshow; answers the function that stops listening. */
export function watchPageEnd({ going, left, shown, back }: PageEndHandlers): () => void {
  const onVisibility = () => (document.visibilityState === 'hidden' ? going() : shown());
  const onPageHide = () => {
    going();
    left();
  };
  const onPageShow = () => {
    back();
    shown();
  };
  window.addEventListener('pagehide', onPageHide);
  window.addEventListener('pageshow', onPageShow);
  document.addEventListener('visibilitychange', onVisibility);
  return () => {
    window.removeEventListener('pagehide', onPageHide);
    window.removeEventListener('pageshow', onPageShow);
    document.removeEventListener('visibilitychange', onVisibility);
  };
}
