/**
 * The review's one door (issue 25): everything outside src/web/review imports the review from here
 * and nowhere else (dependency-cruiser rule `review-has-one-door`), so the rooms inside can be
 * rearranged without touching the app. Today the app still mounts the review's providers and builds
 * its toolbars from the review's hooks; those are what it exports beside the route.
 */

// The route: the review page of one record.
export { ReviewPage } from './review-page.tsx';

// The state of an open record, mounted by the app's router and layout.
export { ActiveToolProvider, useActiveTool, useActiveToolStore } from './tools/active-tool.tsx';
export { AnnotationSessionProvider, useAnnotationSession, useConfirmLeave, useSaveState } from './annotations/annotation-session.tsx';
export { PlaybackProvider, usePlaybackControls } from './playback/playback-context.tsx';
// Unsaved work: the app clears it on sign-out, and record cards say where a draft waits.
export { draftOwnerFromIdToken, draftStore } from './annotations/draft-store.ts';

// The toolbar slots: the left toolbar's tools, the right toolbar's playback controls.
export { TOOLS, type ToolId } from './tools/tools.ts';
export { PLAYBACK_SPEEDS, speedBadge, speedLabel, type PlaybackSpeed } from './playback/playback-speed.ts';
export { PLAYBACK_SHORTCUT, useSpaceToggle } from './playback/use-space-toggle.ts';
