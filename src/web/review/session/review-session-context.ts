import { createContext, use } from 'react';
import type { ReviewSession } from './review-session.ts';

/**
 * The open record's session, in a module of its own that imports the session as a type only: the
 * app's toolbars read it on every screen, and the session's code (frames, pixi, codecs) must load
 * only when a record is opened (issue 27, first load).
 */
export const ReviewSessionContext = createContext<ReviewSession | null>(null);

/** The open record's session (the review page's frames, cursor and record). */
export function useReviewSession(): ReviewSession {
  const session = use(ReviewSessionContext);
  if (!session) throw new Error('ReviewSessionProvider is not mounted');
  return session;
}
