/**
 * The review's one door (issue 25): everything outside src/web/review imports the review from here
 * and nowhere else (dependency-cruiser rule `review-has-one-door`), so the rooms inside can be
 * rearranged without touching the app. The app mounts the review's one session provider and builds
 * its toolbars from the review's hooks; those are what it exports beside the route.
 */

// The route: the review page of one record.
export { ReviewPage } from './review-page.tsx';

// The one owner of an open record (its frames, slice cursor, playback, tool, annotations and their
// save), mounted by the app's router per record; the draft offer the router shows above the page;
// the hooks the app's toolbars read the session with.
export { AnnotationDraftOffer, ReviewSessionProvider } from './session/review-session-provider.tsx';
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
