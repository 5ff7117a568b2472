import { useSyncExternalStore } from 'react';
import type { ToolId } from '../tools/tools.ts';
import { useReviewSession } from './review-session-context.ts';
import type { ReviewScope } from './review-scope.ts';

/** What the review offers for the open record (see reviewScope); follows the record as it loads. */
export function useReviewScope(): ReviewScope {
  const session = useReviewSession();
  return useSyncExternalStore(session.subscribeScope, session.scope);
}

/** The left toolbar's tools for the open record: no contour tool on a loop that is not IVUS. */
export function useReviewTools(): readonly ToolId[] {
  return useReviewScope().tools;
}
