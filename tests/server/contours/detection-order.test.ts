/**
 * The coarse-to-fine order of a record's detection (issue 23): the first pass samples the whole
 * pullback (one chunk of every run) before any run gets its second chunk, a run is never given to
 * two lanes at once, and every chunk is handed out exactly once, in frame order within its run.
 */
import { describe, expect, it } from 'vitest';
import {
  CoarseToFineSchedule,
  detectionPriority,
  detectionRuns,
  inFirstPass,
  type DetectionTask,
} from '../../../src/server/contours/detection-order.ts';
import { fetchOrder } from '../../../src/server/contours/record-detection.ts';

describe('detection runs', () => {
  it('cuts the chunks into runs of the given length, the last one shorter', () => {
    expect(detectionRuns(10, 4)).toEqual([
      { first: 0, end: 4 },
      { first: 4, end: 8 },
      { first: 8, end: 10 },
    ]);
    expect(detectionRuns(0, 4)).toEqual([]);
    expect(() => detectionRuns(10, 0)).toThrow(RangeError);
  });
});

describe('the coarse-to-fine schedule', () => {
  it('with one lane: chunk 0 of every run first (whole pullback sampled), then chunk 1 of every run, and so on', () => {
    const schedule = new CoarseToFineSchedule(detectionRuns(10, 4));
    const taken: DetectionTask[] = [];
    const passes: number[] = [];
    for (let task = schedule.take(); task; task = schedule.take()) {
      taken.push(task);
      schedule.complete(task);
      passes.push(schedule.completedPasses());
    }
    expect(taken.map((t) => t.chunk)).toEqual([0, 4, 8, 1, 5, 9, 2, 6, 3, 7]);
    // Only a run's first chunk mid-record warms up on the frames before it.
    expect(taken.filter((t) => t.warmUp).map((t) => t.chunk)).toEqual([4, 8]);
    // The first pass is complete once the third chunk (run 2's first) is done, not before.
    expect(passes).toEqual([0, 0, 1, 1, 1, 2, 2, 3, 3, 4]);
    expect(schedule.done()).toBe(true);
    // The look-ahead of the fetches follows the same order.
    expect(fetchOrder(detectionRuns(10, 4))).toEqual(taken);
  });

  it('with lanes out of step: never one run on two lanes, each run in frame order, every chunk once', () => {
    const schedule = new CoarseToFineSchedule(detectionRuns(9, 3));
    // Lane A takes run 0, lane B run 1; B finishes first and goes on to run 2, not to run 0's second chunk.
    const a = schedule.take()!;
    const b = schedule.take()!;
    expect([a.chunk, b.chunk]).toEqual([0, 3]);
    schedule.complete(b);
    expect(schedule.take()!.chunk).toBe(6);
    // Run 1 is free again, run 0 busy: the next free task is run 1's second chunk.
    const c = schedule.take()!;
    expect(c.chunk).toBe(4);
    // Every run busy: nothing to hand out until one is complete.
    expect(schedule.take()).toBeNull();
    expect(() => schedule.complete({ run: 5, chunk: 0, warmUp: false })).toThrow();
    schedule.complete(a);
    expect(schedule.take()!.chunk).toBe(1);
  });

  it('a record of one run is detected in frame order, no warm-up', () => {
    const schedule = new CoarseToFineSchedule(detectionRuns(3, 4));
    const chunks: number[] = [];
    for (let task = schedule.take(); task; task = schedule.take()) {
      expect(task.warmUp).toBe(false);
      chunks.push(task.chunk);
      schedule.complete(task);
    }
    expect(chunks).toEqual([0, 1, 2]);
  });
});

describe('the first pass goes first (issue 23: the provisional MLA on a first open)', () => {
  const runs = detectionRuns(10, 4);
  const tasks = fetchOrder(runs);

  it("asks for the first pass's frames ahead of the page's download, the later passes beside it, and an idle detection's behind it", () => {
    const priorities = tasks.map((task) => `${task.chunk}:${detectionPriority(task, runs, false)}`);
    expect(priorities).toEqual(['0:provisional', '4:provisional', '8:provisional', '1:demand', '5:demand', '9:demand', '2:demand', '6:demand', '3:demand', '7:demand']);
    expect(tasks.every((task) => detectionPriority(task, runs, true) === 'background')).toBe(true);
  });

  it('the first pass is every run\'s first chunk', () => {
    expect(tasks.filter((task) => inFirstPass(task, runs)).map((task) => task.chunk)).toEqual([0, 4, 8]);
  });

  it('a task of a run the record does not have is refused', () => {
    expect(() => inFirstPass({ run: 3, chunk: 0, warmUp: false }, runs)).toThrow(RangeError);
  });
});
