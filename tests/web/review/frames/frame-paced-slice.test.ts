import { describe, expect, it } from 'vitest';
import { framePacedSlice, type SliceStore } from '../../../../src/web/review/frames/frame-paced-slice.ts';

/** A slice store like the image store: every move tells its listeners at once. */
function sliceSource(start = 1): SliceStore & { move: (slice: number) => void; listening: () => number } {
  const listeners = new Set<() => void>();
  let snapshot = { slice: start };
  return {
    getSnapshot: () => snapshot,
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    move: (slice) => {
      snapshot = { slice };
      listeners.forEach((listener) => listener());
    },
    listening: () => listeners.size,
  };
}

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

describe('the slice as the frame readout and borders follow it', () => {
  it('changes once per animation frame, to the slice the panels draw in it, however many playback ticks came before', async () => {
    const source = sliceSource();
    const painted = framePacedSlice(source);
    const seen: number[] = [];
    painted.subscribe(() => seen.push(painted.getSnapshot().slice));
    // Five 10 ms playback ticks before the display's next frame: the readout would have rendered five times.
    for (const slice of [2, 3, 4, 5, 6]) source.move(slice);
    expect(painted.getSnapshot().slice).toBe(1);
    expect(seen).toEqual([]);
    await nextFrame();
    expect(seen).toEqual([6]);
    expect(painted.getSnapshot().slice).toBe(6);
  });

  it('tells nothing when the slice came back to the one shown before the frame', async () => {
    const source = sliceSource(4);
    const painted = framePacedSlice(source);
    const seen: number[] = [];
    painted.subscribe(() => seen.push(painted.getSnapshot().slice));
    source.move(5);
    source.move(4);
    await nextFrame();
    expect(seen).toEqual([]);
  });

  it('reads the current slice when nothing listens, and stops listening to the store when the last listener leaves', async () => {
    const source = sliceSource();
    const painted = framePacedSlice(source);
    const stop = painted.subscribe(() => undefined);
    expect(source.listening()).toBe(1);
    stop();
    expect(source.listening()).toBe(0);
    source.move(9);
    expect(painted.getSnapshot().slice).toBe(9);
  });

  it('catches up in the next frame with a move made between a render and the subscription', async () => {
    const source = sliceSource();
    const painted = framePacedSlice(source);
    expect(painted.getSnapshot().slice).toBe(1);
    source.move(7);
    const seen: number[] = [];
    painted.subscribe(() => seen.push(painted.getSnapshot().slice));
    await nextFrame();
    expect(seen).toEqual([7]);
  });
});
