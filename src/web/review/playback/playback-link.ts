import { MIN_BMODE_IMAGES_FOR_PLAYBACK } from '../../../domain/constants.ts';
import { isPlaying, type PlaybackActorRef, type PlaybackView } from './playback.machine.ts';

/**
 * The image store as playback sees it (the review's `ImageStore` fits as it is). The playback
 * actor is created above the page, beside the right toolbar, while the page creates the store:
 * the link lets the page attach its store once it has one.
 */
export interface PlaybackSource {
  getSnapshot: () => PlaybackView;
  subscribe: (listener: () => void) => () => void;
  setSlice: (slice: number) => void;
  countPlayTick: () => void;
  /** The acquisition's frame rate, once the image lists are known (for the real-time speeds). */
  readonly images?: { readonly frameRateHz: number } | null;
}

export interface PlaybackLink {
  /** The attached store's view, or an empty one (which cannot play) while none is attached. */
  read: () => PlaybackView;
  /** The attached record's frame rate, or null while it is not known. */
  frameRateHz: () => number | null;
  /** Shows a slice chosen by playback, and counts the tick. */
  advance: (slice: number) => void;
  /** Returns the detach function. */
  attach: (source: PlaybackSource) => () => void;
  /** Called on every change of the attached store, and on attach and detach. */
  subscribe: (listener: () => void) => () => void;
}

const DETACHED: PlaybackView = { slice: 1, sliceCount: 0, bmodeLoaded: 0 };

export function createPlaybackLink(): PlaybackLink {
  let source: PlaybackSource | null = null;
  let unsubscribeSource: () => void = () => undefined;
  const listeners = new Set<() => void>();
  const notify = () => listeners.forEach((listener) => listener());

  return {
    read: () => source?.getSnapshot() ?? DETACHED,
    frameRateHz: () => source?.images?.frameRateHz ?? null,
    advance: (slice) => {
      source?.setSlice(slice);
      source?.countPlayTick();
    },
    attach: (next) => {
      unsubscribeSource();
      source = next;
      unsubscribeSource = next.subscribe(notify);
      notify();
      return () => {
        // A newer store may have been attached since (a record replaced by the next one).
        if (source !== next) return;
        unsubscribeSource();
        unsubscribeSource = () => undefined;
        source = null;
        notify();
      };
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export function canPlayView(view: PlaybackView): boolean {
  return view.bmodeLoaded >= MIN_BMODE_IMAGES_FOR_PLAYBACK;
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
