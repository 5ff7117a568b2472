import { createContext, use, useCallback, useSyncExternalStore } from 'react';
import { useSelector } from '@xstate/react';
import { isPlaying, type PlaybackActorRef } from './playback.machine.ts';
import type { PlaybackSpeed } from './playback-speed.ts';
import type { CursorPlayback } from './cursor-playback.ts';

/**
 * The open record's playback, for the page (drags hold it) and the right toolbar (Play, Pause,
 * Space, speed). Provided by the review session's provider, which owns it (review/session).
 */
export const PlaybackContext = createContext<CursorPlayback | null>(null);

function usePlayback(): CursorPlayback {
  const playback = use(PlaybackContext);
  if (!playback) throw new Error('The review session (its playback) is not provided');
  return playback;
}

/** For the developer overlay and the inspector: the actor itself. */
export function usePlaybackActor(): PlaybackActorRef {
  return usePlayback().actor;
}

export interface PlaybackControls {
  running: boolean;
  /** Enough images are loaded for Play and Pause: min(100, frame count) of the B-mode, or of the angio run without a pullback. */
  canPlay: boolean;
  /** Why Play waits while it cannot play. */
  waitReason: string;
  /** Manual resume. */
  play: () => void;
  /** Manual pause. */
  pause: () => void;
  toggle: () => void;
  speed: PlaybackSpeed;
  setSpeed: (speed: PlaybackSpeed) => void;
  /** The record's frame rate, for the speed labels; null while it is not known. */
  frameRateHz: number | null;
}

export function usePlaybackControls(): PlaybackControls {
  const playback = usePlayback();
  const { actor, setSpeed } = playback;
  const running = useSelector(actor, isPlaying);
  const speed = useSyncExternalStore(playback.subscribe, playback.speed);
  const frameRateHz = useSyncExternalStore(playback.subscribe, playback.frameRateHz);
  const canPlay = useSyncExternalStore(playback.subscribe, playback.canPlay);
  const waitReason = useSyncExternalStore(playback.subscribe, playback.waitReason);
  const play = useCallback(() => actor.send({ type: 'playback.manualResume' }), [actor]);
  const pause = useCallback(() => actor.send({ type: 'playback.manualPause' }), [actor]);
  const toggle = useCallback(() => (isPlaying(actor.getSnapshot()) ? pause() : play()), [actor, pause, play]);
  return { running, canPlay, waitReason, play, pause, toggle, speed, setSpeed, frameRateHz };
}

const NO_HOLD = () => () => undefined;

/**
 * Automatic pause for as long as the caller holds it, e.g. a drag on a panel:
 * `const release = hold()` on pointer-down, `release()` on pointer-up. Ignored in manual mode,
 * and outside a review session.
 */
export function useAutoPause(): () => () => void {
  return use(PlaybackContext)?.hold ?? NO_HOLD;
}
