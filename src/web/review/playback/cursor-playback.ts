import { createActor } from 'xstate';
import { canPlayView, isPlaying, playbackWaitReason, playbackMachine, type PlaybackActorRef, type PlaybackView } from './playback.machine.ts';
import { defaultPlaybackSpeed, slicesPerTickFor, type PlaybackSpeed } from './playback-speed.ts';

/** What playback reads and moves: the review's slice cursor (`SliceCursor` fits as it is). */
export interface PlaybackSource {
  getSnapshot: () => PlaybackView;
  subscribe: (listener: () => void) => () => void;
  /** Shows the slice playback chose and counts the tick. */
  playTo: (slice: number) => void;
  /** The acquisition's frame rate, once the image lists are known (for the real-time speeds). */
  readonly images: { readonly frameRateHz: number } | null;
}

/**
 * Playback of one open record, built on its slice cursor: the actor reads the slice from the
 * cursor and moves it only through the cursor. It lives as long as the review session, which
 * opens it (tab visibility, speed following the frame rate) and closes it (playback stops).
 */
export interface CursorPlayback {
  readonly actor: PlaybackActorRef;
  /** Automatic pause for as long as the caller holds it (see createAutoPauseHolds). */
  hold: () => () => void;
  speed: () => PlaybackSpeed;
  setSpeed: (speed: PlaybackSpeed) => void;
  /** The record's frame rate, or null while it is not known. */
  frameRateHz: () => number | null;
  canPlay: () => boolean;
  /** Why Play waits while it cannot play (the frames this record needs). */
  waitReason: () => string;
  /** Told when the speed, the frame rate or what can play may have changed. */
  subscribe: (listener: () => void) => () => void;
  /** Starts following the tab's visibility and the record's frame rate; returns the close, which stops playback. */
  open: () => () => void;
}

/**
 * Pauses automatic playback while anything holds it (a hidden tab, a drag on a panel) and
 * resumes it when the last hold is released, but only if a hold stopped it: `autoResume` alone
 * would also start a playback that nobody had started.
 */
export function createAutoPauseHolds(actor: PlaybackActorRef): () => () => void {
  let holds = 0;
  let resumeOnRelease = false;
  return () => {
    holds += 1;
    if (holds === 1) {
      const snapshot = actor.getSnapshot();
      resumeOnRelease = isPlaying(snapshot) && !snapshot.context.manual;
      actor.send({ type: 'playback.autoPause' });
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      holds -= 1;
      if (holds > 0 || !resumeOnRelease) return;
      resumeOnRelease = false;
      actor.send({ type: 'playback.autoResume' });
    };
  };
}

export function createCursorPlayback(cursor: PlaybackSource): CursorPlayback {
  const logic = playbackMachine.provide({ actions: { advanceSlice: (_, { slice }) => cursor.playTo(slice) } });
  // Started at once: stopped, the machine holds no timer, so a session that is never opened costs nothing.
  const actor = createActor(logic, { input: { read: cursor.getSnapshot } }).start();
  const hold = createAutoPauseHolds(actor);
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());
  // The clinician's choice; until there is one, the record's kind of run decides (see defaultPlaybackSpeed).
  let chosen: PlaybackSpeed | null = null;
  const speed = (): PlaybackSpeed => chosen ?? defaultPlaybackSpeed(cursor.getSnapshot());
  const frameRateHz = () => cursor.images?.frameRateHz ?? null;
  // The speed becomes slices per tick once the record's frame rate is known (and again whenever it or the speed changes).
  let appliedFrameRateHz: number | null = null;
  let appliedSpeed: PlaybackSpeed | null = null;
  const applySpeed = () => {
    appliedFrameRateHz = frameRateHz();
    appliedSpeed = speed();
    actor.send({ type: 'playback.setSpeed', slicesPerTick: slicesPerTickFor(appliedSpeed, appliedFrameRateHz) });
  };

  return {
    actor,
    hold,
    speed,
    setSpeed: (next) => {
      if (next === speed()) return;
      chosen = next;
      applySpeed();
      notify();
    },
    frameRateHz,
    canPlay: () => canPlayView(cursor.getSnapshot()),
    waitReason: () => playbackWaitReason(cursor.getSnapshot()),
    subscribe: (listener) => {
      listeners.add(listener);
      const unsubscribe = cursor.subscribe(listener);
      return () => {
        listeners.delete(listener);
        unsubscribe();
      };
    },
    open: () => {
      applySpeed();
      const unsubscribe = cursor.subscribe(() => {
        if (frameRateHz() !== appliedFrameRateHz || speed() !== appliedSpeed) applySpeed();
      });
      let release: (() => void) | null = null;
      const onVisibilityChange = () => {
        if (document.hidden) release ??= hold();
        else {
          release?.();
          release = null;
        }
      };
      document.addEventListener('visibilitychange', onVisibilityChange);
      return () => {
        document.removeEventListener('visibilitychange', onVisibilityChange);
        release?.();
        unsubscribe();
        // Leaving the record stops playback (and forgets the manual mode), as resetting its frames requires.
        actor.send({ type: 'playback.reset' });
      };
    },
  };
}
