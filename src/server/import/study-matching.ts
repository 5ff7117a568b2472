/**
 * Pairs the pullbacks of a study with its angiography runs, one to one, nearest acquisition time
 * first. Either side may already be a record (a pullback waiting for its run, or a run waiting for
 * its pullback); two records are never paired with each other, since merging finished records is
 * not an import's business.
 */

export type Candidate<T> = { item: T; at: Date | null; existing: boolean };
export type Pairing<P, R> = { pairs: { pullback: P; run: R }[]; pullbacks: P[]; runs: R[] };

export function pairByTime<P, R>(pullbacks: Candidate<P>[], runs: Candidate<R>[]): Pairing<P, R> {
  const options: { p: number; r: number; distance: number }[] = [];
  pullbacks.forEach((p, i) => {
    runs.forEach((r, j) => {
      if (p.existing && r.existing) return;
      // Without both times a pair is still possible, after every timed one, in upload order.
      const distance = p.at && r.at ? Math.abs(p.at.getTime() - r.at.getTime()) : Infinity;
      options.push({ p: i, r: j, distance });
    });
  });
  options.sort((a, b) => a.distance - b.distance || a.p - b.p || a.r - b.r);
  const pulledBack = new Set<number>();
  const ran = new Set<number>();
  const pairs: Pairing<P, R>['pairs'] = [];
  for (const { p, r } of options) {
    if (pulledBack.has(p) || ran.has(r)) continue;
    pulledBack.add(p);
    ran.add(r);
    pairs.push({ pullback: pullbacks[p]!.item, run: runs[r]!.item });
  }
  return {
    pairs,
    pullbacks: pullbacks.filter((_, i) => !pulledBack.has(i)).map((c) => c.item),
    runs: runs.filter((_, j) => !ran.has(j)).map((c) => c.item),
  };
}
