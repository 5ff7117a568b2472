/**
 * Writes that follow the current slice (the slice indicator, the L-mode and plot cursors) are made
 * in the next animation frame, the one in which the panels draw the slice's image. Made at once,
 * an input arriving between two frames showed the new numbers one frame before the new image,
 * and cost the browser an extra frame to composite.
 */
export interface FrameWrite {
  /** Asks for the write in the next animation frame; asking again before then changes nothing. */
  request(): void;
  cancel(): void;
}

export function frameWrite(write: () => void): FrameWrite {
  let pending = 0;
  return {
    request() {
      if (pending) return;
      pending = requestAnimationFrame(() => {
        pending = 0;
        write();
      });
    },
    cancel() {
      if (pending) cancelAnimationFrame(pending);
      pending = 0;
    },
  };
}

/** Subscribes `write` to a store so that it runs in the next animation frame after changes; returns the unsubscribe. */
export function writeInNextFrameOnChange(subscribe: (listener: () => void) => () => void, write: () => void): () => void {
  const next = frameWrite(write);
  const unsubscribe = subscribe(next.request);
  return () => {
    unsubscribe();
    next.cancel();
  };
}
