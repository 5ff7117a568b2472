import { describe, expect, it } from 'vitest';
import { layOutLabels, type LabelRequest } from '../../../../src/web/review/contours/label-layout.ts';

const bounds = { min: 0, max: 1000, gap: 4 };

/** Whether any two laid-out labels overlap (closer than the gap). */
function overlaps(requests: readonly LabelRequest[], starts: readonly number[], gap = 4): boolean {
  const spans = starts.map((x, i) => [x, x + requests[i]!.width] as const).sort((a, b) => a[0] - b[0]);
  return spans.some((span, i) => i > 0 && span[0] < spans[i - 1]![1] + gap - 1e-9);
}

describe('marker label layout', () => {
  it('leaves labels that do not collide at their markers', () => {
    const requests = [
      { x: 100, width: 40 },
      { x: 300, width: 40 },
      { x: 600, width: 50 },
    ];
    expect(layOutLabels(requests, bounds)).toEqual([100, 300, 600]);
  });

  it('pushes two colliding labels apart about their markers, each shifted equally', () => {
    const requests = [
      { x: 500, width: 40 },
      { x: 510, width: 40 },
    ];
    const starts = layOutLabels(requests, bounds);
    expect(overlaps(requests, starts)).toBe(false);
    // They need 44 px between starts and have 10: each moves 17 px, the first left, the second right.
    expect(starts).toEqual([483, 527]);
  });

  it('keeps the order and answers in the order given, whatever the order of the markers', () => {
    const requests = [
      { x: 520, width: 30 },
      { x: 500, width: 60 },
      { x: 505, width: 30 },
    ];
    const starts = layOutLabels(requests, bounds);
    expect(overlaps(requests, starts)).toBe(false);
    expect(starts[1]!).toBeLessThan(starts[2]!);
    expect(starts[2]!).toBeLessThan(starts[0]!);
  });

  it('keeps labels inside the row, pushing a crowd at the right end leftwards', () => {
    const requests = [
      { x: 980, width: 40 },
      { x: 985, width: 40 },
      { x: 990, width: 40 },
    ];
    const starts = layOutLabels(requests, bounds);
    expect(overlaps(requests, starts)).toBe(false);
    expect(Math.max(...starts.map((x, i) => x + requests[i]!.width))).toBeLessThanOrEqual(1000);
    expect(Math.min(...starts)).toBeGreaterThanOrEqual(0);
  });

  it('keeps a label at the left end inside the row', () => {
    expect(layOutLabels([{ x: -20, width: 40 }], bounds)).toEqual([0]);
  });

  it('never overlaps, even for many labels at one marker or more labels than the row holds', () => {
    const crowd = Array.from({ length: 12 }, (_, i) => ({ x: 400 + (i % 3), width: 30 + i }));
    expect(overlaps(crowd, layOutLabels(crowd, bounds))).toBe(false);
    const tooMany = Array.from({ length: 5 }, () => ({ x: 50, width: 40 }));
    const starts = layOutLabels(tooMany, { min: 0, max: 100, gap: 4 });
    expect(overlaps(tooMany, starts)).toBe(false);
    expect(starts[0]).toBe(0);
  });

  it('merges a group that a push brings against an earlier label', () => {
    const requests = [
      { x: 100, width: 50 },
      { x: 160, width: 40 },
      { x: 165, width: 40 },
    ];
    const starts = layOutLabels(requests, bounds);
    expect(overlaps(requests, starts)).toBe(false);
    // The three sit as one block centred on their wishes: the shifts sum to nothing.
    expect(starts[0]! - 100 + (starts[1]! - 160) + (starts[2]! - 165)).toBeCloseTo(0, 9);
  });
});
