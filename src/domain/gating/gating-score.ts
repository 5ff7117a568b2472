/**
 * Scoring gated frames against the known end-diastoles: a cycle is hit when a gated frame lies
 * within the tolerance of its end-diastolic frame; a gated frame near no end-diastole is a false one.
 */
export interface GatingScore {
  readonly cycles: number;
  readonly hits: number;
  /** Gated frames within the truth's span that match no end-diastole. */
  readonly falseFrames: number;
}

export const GATING_TOLERANCE_FRAMES = 1;

export function scoreGating(truth: readonly number[], gated: readonly number[], tolerance = GATING_TOLERANCE_FRAMES): GatingScore {
  const used = new Set<number>();
  let hits = 0;
  for (const frame of truth) {
    const match = gated.findIndex((g, k) => !used.has(k) && Math.abs(g - frame) <= tolerance);
    if (match >= 0) {
      used.add(match);
      hits++;
    }
  }
  const first = (truth[0] ?? 0) - tolerance;
  const last = (truth[truth.length - 1] ?? -1) + tolerance;
  const falseFrames = gated.filter((g, k) => !used.has(k) && g >= first && g <= last).length;
  return { cycles: truth.length, hits, falseFrames };
}

export function addScores(scores: readonly GatingScore[]): GatingScore {
  return scores.reduce((sum, s) => ({ cycles: sum.cycles + s.cycles, hits: sum.hits + s.hits, falseFrames: sum.falseFrames + s.falseFrames }), {
    cycles: 0,
    hits: 0,
    falseFrames: 0,
  });
}
