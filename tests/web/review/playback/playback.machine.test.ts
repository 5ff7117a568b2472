import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { MIN_BMODE_IMAGES_FOR_PLAYBACK, PLAYBACK_STEP_MS } from '../../../../src/domain/constants.ts';
import {
  canPlayView,
  isPlaying,
  nextSlice,
  playbackMachine,
  MAX_TICK_MS,
  realTimeSlicesPerTick,
  tickProgress,
  type PlaybackActorRef,
  type PlaybackView,
} from '../../../../src/web/review/playback/playback.machine.ts';

/** A stand-in for the image store: it owns the slice, as the real one does. */
function fakeStore({
  slice = 1,
  sliceCount = 300,
  bmodeLoaded = MIN_BMODE_IMAGES_FOR_PLAYBACK,
  bmodeCount = undefined as number | undefined,
  angioCount = 0,
  angioLoaded = 0,
} = {}) {
  bmodeCount ??= sliceCount;
  const view: { -readonly [K in keyof PlaybackView]: PlaybackView[K] } = { slice, sliceCount, bmodeLoaded, bmodeCount, angioCount, angioLoaded };
  const shown: number[] = [];
  return { view, shown, read: () => view };
}

function startPlayback(store = fakeStore(), slicesPerTick?: number) {
  const actor = createActor(
    playbackMachine.provide({
      actions: {
        advanceSlice: (_, { slice }) => {
          store.view.slice = slice;
          store.shown.push(slice);
        },
      },
    }),
    { input: { read: store.read, slicesPerTick } },
  ).start();
  const state = () => ({ playing: isPlaying(actor.getSnapshot()), manual: actor.getSnapshot().context.manual });
  return { actor, store, state };
}

/** The fake clock's animation frames come every 16 ms. */
const FRAME_MS = 16;

/** `count` ticks of one 10 ms step each, as the machine gets them when frames come every 10 ms. */
function tick(actor: PlaybackActorRef, count = 1) {
  for (let i = 0; i < count; i++) actor.send({ type: 'playback.tick' });
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('playback statechart (spec section 4)', () => {
  it('starts stopped, automatic, and does not tick', () => {
    const { store, state } = startPlayback();
    expect(state()).toEqual({ playing: false, manual: false });
    vi.advanceTimersByTime(FRAME_MS * 5);
    expect(store.shown).toEqual([]);
  });

  it('manual resume plays from the current slice, manual pause stops there, both set manual mode', () => {
    const { actor, store, state } = startPlayback(fakeStore({ slice: 40 }));
    actor.send({ type: 'playback.manualResume' });
    expect(state()).toEqual({ playing: true, manual: true });
    tick(actor, 3);
    expect(store.shown).toEqual([41, 42, 43]);

    actor.send({ type: 'playback.manualPause' });
    expect(state()).toEqual({ playing: false, manual: true });
    tick(actor, 3);
    expect(store.view.slice).toBe(43);
  });

  it('moves the slice at most once per animation frame, by the time since the last one: 100 slices a second', () => {
    const { actor, store } = startPlayback();
    actor.send({ type: 'playback.manualResume' });
    // No move before the display's first frame.
    vi.advanceTimersByTime(FRAME_MS - 1);
    expect(store.shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(store.shown).toEqual([2]);
    // A second of frames: one slice change per frame (never more), and the spec's 100 slices in it.
    vi.advanceTimersByTime(1000 - FRAME_MS);
    const frames = Math.floor(1000 / FRAME_MS);
    expect(store.shown).toHaveLength(frames);
    expect(store.view.slice).toBe(1 + Math.floor((frames * FRAME_MS) / PLAYBACK_STEP_MS));
  });

  it('lets a panel that draws in the next animation frame after each move draw in every frame of playback', () => {
    const store = fakeStore();
    let pending = 0;
    const drawn: number[] = [];
    // As the panels do (panel-controller.ts): a move asks for a draw in the next frame, unless one is pending.
    const actor = createActor(
      playbackMachine.provide({
        actions: {
          advanceSlice: (_, { slice }) => {
            store.view.slice = slice;
            pending ||= requestAnimationFrame(() => {
              pending = 0;
              drawn.push(store.view.slice);
            });
          },
        },
      }),
      { input: { read: store.read } },
    ).start();
    actor.send({ type: 'playback.manualResume' });
    vi.advanceTimersByTime(FRAME_MS * 31);
    // The first frame moves the slice; each of the next 30 draws the slice the frame before it chose.
    expect(drawn).toHaveLength(30);
    expect(new Set(drawn).size).toBe(30);
  });

  it('stops moving the slice on pause: no frame is asked for while stopped', () => {
    const { actor, store } = startPlayback();
    actor.send({ type: 'playback.manualResume' });
    vi.advanceTimersByTime(FRAME_MS * 3);
    actor.send({ type: 'playback.manualPause' });
    const shown = store.view.slice;
    vi.advanceTimersByTime(FRAME_MS * 10);
    expect(store.view.slice).toBe(shown);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('counts a late frame (a long task) as at most MAX_TICK_MS of playback', () => {
    const { actor, store } = startPlayback();
    actor.send({ type: 'playback.manualResume' });
    actor.send({ type: 'playback.tick', elapsedMs: 5_000 });
    expect(store.shown).toEqual([1 + MAX_TICK_MS / PLAYBACK_STEP_MS]);
    expect(tickProgress(1, 25)).toBeCloseTo(2.5);
    expect(tickProgress(0.3, undefined)).toBeCloseTo(0.3);
  });

  it('continues from wherever the user moved the slice while playing', () => {
    const { actor, store } = startPlayback();
    actor.send({ type: 'playback.manualResume' });
    tick(actor);
    store.view.slice = 200;
    tick(actor);
    expect(store.shown).toEqual([2, 201]);
  });

  it('restarts from slice 1 after the last slice', () => {
    const { actor, store } = startPlayback(fakeStore({ slice: 148, sliceCount: 150, bmodeLoaded: 120 }));
    actor.send({ type: 'playback.manualResume' });
    tick(actor, 4);
    expect(store.shown).toEqual([149, 150, 1, 2]);
  });

  it.each([0, 1, MIN_BMODE_IMAGES_FOR_PLAYBACK - 1])('refuses to play with %i B-mode images loaded', (bmodeLoaded) => {
    const { actor, store, state } = startPlayback(fakeStore({ bmodeLoaded }));
    actor.send({ type: 'playback.manualResume' });
    expect(state()).toEqual({ playing: false, manual: false });
    actor.send({ type: 'playback.autoResume' });
    expect(state().playing).toBe(false);
    tick(actor, 5);
    expect(store.shown).toEqual([]);
  });

  it('plays once enough B-mode images have arrived', () => {
    const { actor, store, state } = startPlayback(fakeStore({ bmodeLoaded: 16 }));
    actor.send({ type: 'playback.manualResume' });
    expect(state().playing).toBe(false);
    store.view.bmodeLoaded = MIN_BMODE_IMAGES_FOR_PLAYBACK;
    actor.send({ type: 'playback.manualResume' });
    expect(state().playing).toBe(true);
  });

  it('plays a record shorter than the threshold once all its frames are in (an 87-frame loop)', () => {
    const { actor, store, state } = startPlayback(fakeStore({ sliceCount: 87, bmodeLoaded: 80 }));
    actor.send({ type: 'playback.manualResume' });
    expect(state().playing).toBe(false);
    store.view.bmodeLoaded = 87;
    actor.send({ type: 'playback.manualResume' });
    expect(state().playing).toBe(true);
    tick(actor, 2);
    expect(store.shown).toEqual([2, 3]);
  });

  it('plays the angiography run of a record without a pullback', () => {
    const { actor, store, state } = startPlayback(fakeStore({ slice: 95, sliceCount: 96, bmodeLoaded: 0, bmodeCount: 0, angioCount: 96, angioLoaded: 96 }));
    actor.send({ type: 'playback.manualResume' });
    expect(state().playing).toBe(true);
    tick(actor, 3);
    expect(store.shown).toEqual([96, 1, 2]);
  });

  describe('automatic pause and resume', () => {
    it('start and stop playback while not in manual mode', () => {
      const { actor, store, state } = startPlayback();
      actor.send({ type: 'playback.autoResume' });
      expect(state()).toEqual({ playing: true, manual: false });
      tick(actor, 2);
      actor.send({ type: 'playback.autoPause' });
      expect(state()).toEqual({ playing: false, manual: false });
      tick(actor, 2);
      expect(store.shown).toEqual([2, 3]);
      actor.send({ type: 'playback.autoResume' });
      tick(actor);
      expect(store.shown).toEqual([2, 3, 4]);
    });

    it('do not pause a playback the user started', () => {
      const { actor, state } = startPlayback();
      actor.send({ type: 'playback.manualResume' });
      actor.send({ type: 'playback.autoPause' });
      expect(state()).toEqual({ playing: true, manual: true });
    });

    it('do not resume a playback the user paused', () => {
      const { actor, state } = startPlayback();
      actor.send({ type: 'playback.autoResume' });
      actor.send({ type: 'playback.manualPause' });
      actor.send({ type: 'playback.autoResume' });
      expect(state()).toEqual({ playing: false, manual: true });
    });

    it('manual pause while stopped still sets manual mode', () => {
      const { actor, state } = startPlayback();
      actor.send({ type: 'playback.manualPause' });
      expect(state()).toEqual({ playing: false, manual: true });
      actor.send({ type: 'playback.autoResume' });
      expect(state().playing).toBe(false);
    });

    it('manual resume of an automatic playback keeps it running and makes it manual', () => {
      const { actor, state } = startPlayback();
      actor.send({ type: 'playback.autoResume' });
      actor.send({ type: 'playback.manualResume' });
      expect(state()).toEqual({ playing: true, manual: true });
      actor.send({ type: 'playback.autoPause' });
      expect(state().playing).toBe(true);
    });

    it('auto pause while stopped changes nothing', () => {
      const { actor, state } = startPlayback();
      actor.send({ type: 'playback.autoPause' });
      expect(state()).toEqual({ playing: false, manual: false });
    });
  });

  describe('reset', () => {
    it('stops playback and leaves manual mode', () => {
      const { actor, store, state } = startPlayback();
      actor.send({ type: 'playback.manualResume' });
      tick(actor);
      actor.send({ type: 'playback.reset' });
      expect(state()).toEqual({ playing: false, manual: false });
      tick(actor, 5);
      expect(store.shown).toEqual([2]);
      actor.send({ type: 'playback.autoResume' });
      expect(state().playing).toBe(true);
    });

    it('also happens when the image store is emptied under a running playback', () => {
      const { actor, store, state } = startPlayback();
      actor.send({ type: 'playback.manualResume' });
      store.view.bmodeLoaded = 0;
      store.view.sliceCount = 0;
      vi.advanceTimersByTime(FRAME_MS);
      expect(state()).toEqual({ playing: false, manual: false });
      expect(store.shown).toEqual([]);
      // Stopped by its own tick, the ticker asks for no further frame.
      expect(vi.getTimerCount()).toBe(0);
    });
  });

  describe('speed', () => {
    it('plays several slices per 10 ms step', () => {
      const { actor, store } = startPlayback(fakeStore({ sliceCount: 150 }));
      actor.send({ type: 'playback.setSpeed', slicesPerTick: 2 });
      actor.send({ type: 'playback.manualResume' });
      tick(actor, 3);
      expect(store.shown).toEqual([3, 5, 7]);
    });

    it('plays fractions of a slice per 10 ms step by skipping steps', () => {
      const { actor, store } = startPlayback(fakeStore(), 0.25);
      actor.send({ type: 'playback.manualResume' });
      tick(actor, 8);
      expect(store.shown).toEqual([2, 3]);
    });

    it('ignores speeds that are not positive', () => {
      const { actor } = startPlayback();
      actor.send({ type: 'playback.setSpeed', slicesPerTick: 0 });
      actor.send({ type: 'playback.setSpeed', slicesPerTick: Number.NaN });
      expect(actor.getSnapshot().context.slicesPerTick).toBe(1);
    });

    it('plays in real time at the acquisition frame rate', () => {
      expect(realTimeSlicesPerTick(30)).toBeCloseTo(0.3);
    });
  });

  it('wraps slices both ways', () => {
    expect(nextSlice(3600, 3600, 1)).toBe(1);
    expect(nextSlice(3599, 3600, 3)).toBe(2);
    expect(nextSlice(1, 3600, -1)).toBe(3600);
    expect(nextSlice(5, 0, 1)).toBe(1);
  });
});

describe('when Play is available (issue 26: min(100, frame count) frames loaded)', () => {
  const view = (bmodeCount: number, bmodeLoaded: number, angioCount = 0, angioLoaded = 0) => ({
    slice: 1, sliceCount: Math.max(bmodeCount, angioCount), bmodeCount, bmodeLoaded, angioCount, angioLoaded,
  });
  it.each([
    ['a long pullback with fewer than 100 B-mode frames in', view(300, MIN_BMODE_IMAGES_FOR_PLAYBACK - 1, 40, 40), false],
    ['a long pullback with 100 B-mode frames in', view(300, MIN_BMODE_IMAGES_FOR_PLAYBACK), true],
    ['an 87-frame loop with 86 frames in', view(87, 86), false],
    ['an 87-frame loop with all 87 in', view(87, 87), true],
    ['an angiography run of 96 frames (no pullback) with 95 in', view(0, 0, 96, 95), false],
    ['an angiography run of 96 frames (no pullback) with all 96 in', view(0, 0, 96, 96), true],
    ['an angiography run of 300 frames with 100 in', view(0, 0, 300, 100), true],
    ['a pullback whose angio is in but not its B-mode', view(87, 0, 96, 96), false],
    ['a record whose image lists are not known yet', view(0, 0), false],
  ])('%s: %s', (_, playbackView, playable) => {
    expect(canPlayView(playbackView)).toBe(playable);
  });
});
