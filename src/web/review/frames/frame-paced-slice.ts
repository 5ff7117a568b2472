import { frameWrite } from './next-frame.ts';

/** A store whose snapshot holds the current slice (the image store and the slice cursor fit as they are). */
export interface SliceStore {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => { readonly slice: number };
}

/**
 * The slice as React components that follow it should read it: changed at most once per animation
 * frame, in the frame that draws the slice's image. Playback moves the slice every 10 ms tick (100
 * a second) while the display shows 60 frames a second at best, and far fewer under load: each
 * store change re-rendered the frame's readout, its borders and the annotation overlay
 * synchronously, several times per painted frame, for images nobody saw (issue 27). Subscribed to
 * this, they render once per painted frame, with the slice the panels draw in it.
 *
 * Listens to `source` only while something listens to it.
 */
export function framePacedSlice(source: SliceStore): SliceStore {
  const listeners = new Set<() => void>();
  let shown = { slice: source.getSnapshot().slice };
  let unsubscribeSource: (() => void) | null = null;
  const publish = frameWrite(() => {
    const { slice } = source.getSnapshot();
    if (slice === shown.slice) return;
    shown = { slice };
    listeners.forEach((listener) => listener());
  });
  return {
    getSnapshot: () => {
      // Nobody listens yet (a first render): the source's slice, not one from before the last listener left.
      if (listeners.size === 0 && shown.slice !== source.getSnapshot().slice) shown = { slice: source.getSnapshot().slice };
      return shown;
    },
    subscribe: (listener) => {
      listeners.add(listener);
      unsubscribeSource ??= source.subscribe(publish.request);
      // Moved between a render and this subscription: catch up in the next frame.
      if (shown.slice !== source.getSnapshot().slice) publish.request();
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0) return;
        unsubscribeSource?.();
        unsubscribeSource = null;
        publish.cancel();
      };
    },
  };
}
