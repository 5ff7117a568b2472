/**
 * The review's code (its session, pixi, the codecs; about 1 MB) fetched and evaluated before a
 * record is opened (issue 27, first open to Play < 2 s): downloaded only after the click, it and
 * its evaluation stood between the click and the first frame request. It is not part of the first
 * load (sign-in and the patients list); the records page asks for it once the browser is idle (2 s
 * after the page at the latest), while the clinician picks a record.
 */
import { loadReviewRoute } from '../review/index.ts';
import { loadRightToolbar } from './app-layout.tsx';

/**
 * The review and its playback toolbar, downloading side by side. Asked again (the click after a
 * preload), the import answers from the module the preload fetched: nothing is downloaded twice.
 */
export function loadReview(): ReturnType<typeof loadReviewRoute> {
  void loadRightToolbar().catch(() => undefined);
  return loadReviewRoute();
}

/** Starts the review's download, its failure left to the review screen (which reports it and retries). */
function preloadReview(): void {
  loadReview().catch(() => undefined);
}

/** Preloads the review once the browser has nothing else to do (a timer where there is no requestIdleCallback); returns the cancel. */
export function preloadReviewWhenIdle(): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(preloadReview, { timeout: 2000 });
    return () => cancelIdleCallback(handle);
  }
  const timer = setTimeout(preloadReview, 200);
  return () => clearTimeout(timer);
}
