import { describe, expect, it } from 'vitest';
import { LOW_CONFIDENCE } from '../../../src/domain/contours/border-detection.ts';
import { lowConfidenceSlices, nextSliceToCheck, sliceRuns } from '../../../src/domain/contours/slices-to-check.ts';

describe('slices to check', () => {
  it('lists the 1-based slices whose confidence is below LOW_CONFIDENCE', () => {
    expect(LOW_CONFIDENCE).toBe(0.5);
    expect(lowConfidenceSlices([0.9, 0.49, 0.5, 0.1, 1])).toEqual([2, 4]);
    expect(lowConfidenceSlices([0.9, 0.8], 0.85)).toEqual([2]);
    expect(lowConfidenceSlices([])).toEqual([]);
  });

  it('steps to the next and the previous one without wrapping round', () => {
    const slices = [3, 8, 9, 20];
    expect(nextSliceToCheck(slices, 1, 1)).toBe(3);
    expect(nextSliceToCheck(slices, 3, 1)).toBe(8);
    expect(nextSliceToCheck(slices, 8, 1)).toBe(9);
    expect(nextSliceToCheck(slices, 15, 1)).toBe(20);
    expect(nextSliceToCheck(slices, 20, 1)).toBeNull();
    expect(nextSliceToCheck(slices, 20, -1)).toBe(9);
    expect(nextSliceToCheck(slices, 9, -1)).toBe(8);
    expect(nextSliceToCheck(slices, 4, -1)).toBe(3);
    expect(nextSliceToCheck(slices, 3, -1)).toBeNull();
    expect(nextSliceToCheck([], 5, 1)).toBeNull();
    expect(nextSliceToCheck([], 5, -1)).toBeNull();
  });

  it('groups consecutive slices into runs', () => {
    expect(sliceRuns([2, 3, 4, 7, 9, 10])).toEqual([
      { first: 2, last: 4 },
      { first: 7, last: 7 },
      { first: 9, last: 10 },
    ]);
    expect(sliceRuns([])).toEqual([]);
  });
});
