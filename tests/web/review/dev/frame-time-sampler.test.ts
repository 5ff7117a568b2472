import { describe, expect, it } from 'vitest';
import { FrameTimeSampler, median, type AfterPaint } from '../../../../src/web/review/dev/frame-time-sampler.ts';
import { devStore } from './dev-store-fixture.ts';

/** A clock the test moves, and paints the test triggers. */
function harness() {
  let time = 0;
  const pending: (() => void)[] = [];
  let cancelled = 0;
  const afterPaint: AfterPaint = (callback) => {
    pending.push(callback);
    return () => {
      cancelled += 1;
      pending.splice(pending.indexOf(callback), 1);
    };
  };
  return {
    sampler: new FrameTimeSampler({ now: () => time, afterPaint }),
    advance: (ms: number) => {
      time += ms;
    },
    paint: () => pending.splice(0).forEach((callback) => callback()),
    pending: () => pending.length,
    cancelled: () => cancelled,
  };
}

describe('frame time sampler', () => {
  it('measures from a slice change to the next paint, ignoring other store changes', () => {
    const { sampler, advance, paint, pending } = harness();
    const store = devStore();
    sampler.connect(store);
    expect(sampler.median()).toBeNull();

    store.setDownloading(true);
    store.countPlayTick();
    expect(pending()).toBe(0);

    store.setSlice(2);
    advance(7);
    paint();
    expect(sampler.median()).toBe(7);
  });

  it('counts changes shown by the same paint once, from the first of them', () => {
    const { sampler, advance, paint, pending } = harness();
    const store = devStore();
    sampler.connect(store);
    store.setSlice(2);
    advance(3);
    store.setSlice(3);
    advance(2);
    expect(pending()).toBe(1);
    paint();
    expect(sampler.sampleCount).toBe(1);
    expect(sampler.median()).toBe(5);
  });

  it('keeps the median of the last 60 samples', () => {
    const { sampler, advance, paint } = harness();
    const store = devStore();
    sampler.connect(store);
    const sample = (ms: number) => {
      store.setSlice(store.getSnapshot().slice === 1 ? 2 : 1);
      advance(ms);
      paint();
    };
    for (let i = 0; i < 60; i += 1) sample(100);
    expect(sampler.median()).toBe(100);
    for (let i = 0; i < 60; i += 1) sample(2);
    expect(sampler.sampleCount).toBe(60);
    expect(sampler.median()).toBe(2);
  });

  it('stops sampling and cancels the pending paint when disconnected', () => {
    const { sampler, cancelled, pending } = harness();
    const store = devStore();
    const disconnect = sampler.connect(store);
    store.setSlice(2);
    disconnect();
    expect(cancelled()).toBe(1);
    store.setSlice(3);
    expect(pending()).toBe(0);
    expect(sampler.median()).toBeNull();
  });

  it('takes the median of odd and even counts', () => {
    expect(median([])).toBeNull();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
  });
});
