import { describe, expect, it } from 'vitest';
import { addScores, scoreGating } from '../../../src/domain/gating/gating-score.ts';

describe('scoreGating', () => {
  it('counts a cycle hit when a gated frame lies within one frame of its end-diastole, each gated frame once', () => {
    expect(scoreGating([10, 40, 70], [11, 38, 70])).toEqual({ cycles: 3, hits: 2, falseFrames: 1 });
    // One gated frame between two close end-diastoles hits only one of them.
    expect(scoreGating([10, 12], [11])).toEqual({ cycles: 2, hits: 1, falseFrames: 0 });
  });

  it('ignores gated frames outside the truth’s span and adds scores', () => {
    expect(scoreGating([10, 40], [2, 10, 40, 90])).toEqual({ cycles: 2, hits: 2, falseFrames: 0 });
    expect(addScores([{ cycles: 2, hits: 1, falseFrames: 0 }, { cycles: 3, hits: 3, falseFrames: 2 }])).toEqual({ cycles: 5, hits: 4, falseFrames: 2 });
  });
});
