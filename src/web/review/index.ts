/**
 * The review's one door (issue 25): everything outside src/web/review imports the review from here
 * and nowhere else (dependency-cruiser rule `review-has-one-door`), so the rooms inside can be
 * rearranged without touching the app.
 *
 * The door is light (issue 27, first load): the app imports it on every screen, so it exports only
 * what the toolbars and record cards read (contexts, hooks, the tool and speed lists, the draft
 * store), none of which reaches pixi, the codecs or the report. The review itself (its session,
 * page and panels) is behind `loadReviewRoute`, a dynamic import the bundler makes its own chunks.
 */
import type { ComponentType } from 'react';
import type { ReviewRouteProps } from './review-route.tsx';

// The route: the review of one record, with its session, loaded when a record is opened.
export type { ReviewRouteProps };
export function loadReviewRoute(): Promise<{ default: ComponentType<ReviewRouteProps> }> {
  return import('./review-route.tsx').then((module) => ({ default: module.ReviewRoute }));
}

// The hooks the app's toolbars read the open record's session with (each null-safe or only used
// on the review screen, inside the route's session).
export { useActiveTool, useActiveToolStore } from './tools/active-tool.tsx';
export { useReviewTools } from './session/use-review-scope.ts';
export { useAnnotationSession, useConfirmLeave, useSaveState } from './annotations/annotation-session.tsx';
export { usePlaybackControls } from './playback/playback-context.tsx';
// Unsaved work: the app clears it on sign-out, and record cards say where a draft waits.
export { draftOwnerFromIdToken, draftStore } from './annotations/draft-store.ts';

// The toolbar slots: the left toolbar's tools, the right toolbar's playback controls.
export { TOOLS, type ToolId } from './tools/tools.ts';
export { PLAYBACK_SPEEDS, speedBadge, speedLabel, type PlaybackSpeed } from './playback/playback-speed.ts';
export { PLAYBACK_SHORTCUT, useSpaceToggle } from './playback/use-space-toggle.ts';
