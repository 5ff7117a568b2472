import { describe, expect, it } from 'vitest';
import { WHEEL_NOTCH_PX, lmodeSliceToX, lmodeXToSlice, loadedRuns, wheelSteps } from '../../../../src/web/review/view/lmode-mapping.ts';

describe('lmodeXToSlice', () => {
  it('maps the image width onto slices 1..N', () => {
    expect(lmodeXToSlice(0, 3600, 3600)).toBe(1);
    expect(lmodeXToSlice(0.99, 3600, 3600)).toBe(1);
    expect(lmodeXToSlice(1, 3600, 3600)).toBe(2);
    expect(lmodeXToSlice(1800, 3600, 3600)).toBe(1801);
    expect(lmodeXToSlice(3599.5, 3600, 3600)).toBe(3600);
  });

  it('clamps outside the image', () => {
    expect(lmodeXToSlice(-10, 100, 50)).toBe(1);
    expect(lmodeXToSlice(1000, 100, 50)).toBe(50);
  });

  it('works when the image is narrower than the slice count', () => {
    expect(lmodeXToSlice(50, 100, 200)).toBe(101);
  });

  it('has the cursor inside its own slice', () => {
    for (const slice of [1, 17, 200]) expect(lmodeXToSlice(lmodeSliceToX(slice, 100, 200), 100, 200)).toBe(slice);
  });

  it('is safe without slices', () => {
    expect(lmodeXToSlice(5, 100, 0)).toBe(1);
  });
});

describe('loadedRuns', () => {
  it('groups consecutive loaded frames', () => {
    const loaded = new Set([0, 1, 2, 5, 8, 9]);
    expect(loadedRuns(10, (i) => loaded.has(i))).toEqual([
      [0, 3],
      [5, 6],
      [8, 10],
    ]);
    expect(loadedRuns(4, () => false)).toEqual([]);
  });
});

describe('wheelSteps', () => {
  it('is one slice per mouse notch', () => {
    expect(wheelSteps(0, WHEEL_NOTCH_PX, 0)).toEqual({ steps: 1, carry: 0 });
    expect(wheelSteps(0, -120, 0)).toEqual({ steps: -1, carry: 0 });
    expect(wheelSteps(0, 3, 1)).toEqual({ steps: 1, carry: 0 });
  });

  it('accumulates small trackpad deltas', () => {
    let state = { steps: 0, carry: 0 };
    let total = 0;
    for (let i = 0; i < 10; i++) {
      state = wheelSteps(state.carry, 25, 0);
      total += state.steps;
    }
    expect(total).toBe(2);
  });
});
