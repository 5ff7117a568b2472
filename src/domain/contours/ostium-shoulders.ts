/**
 * The lumen beside a side branch's ostium (issue 23). Once the branch's rays are found, the lumen is
 * searched again with them blind (border-detector.ts step 7), which repairs a first search that ran
 * out along the branch. But the search's jumps are whole samples, each costing the jump penalty, so
 * the climb from one side of the ostium to the other costs the same wherever it is made: the search
 * makes it where the evidence is weakest, on the seeing rays just beside the ostium (the shoulders),
 * and pulls them in towards the lower side. The blind rays are then interpolated from those pulled-in
 * ends, and the lumen across the ostium comes out too narrow (1.1 against a true 1.4 mm).
 *
 * restoreShoulders gives each shoulder back the first search's radii when they continue the lumen
 * where both searches agree: from each end of a blind run, the seeing rays on which the second
 * search lies inside the first, up to the ray where they meet again (within SHOULDER_MAX_RAYS). They
 * are restored only when the first search stays there within `excess` of its radius at the meeting
 * ray; a first search that ran out along the branch beside the run (far beyond it) is no shoulder,
 * and the second search's radii stay.
 */
import { forEachBlindRun } from './radial-profile.ts';

/** Longest shoulder walked from a blind run's end, in rays of 360. */
const SHOULDER_MAX_RAYS = 40;

/**
 * Restores into `path` (the second search's candidate indices) the first search's `first` on the
 * shoulders of each run of `branch` rays (see above); a shoulder ends at any `blind` ray. `excess` is
 * in candidate samples. Returns how many rays it restored.
 */
export function restoreShoulders(path: Int32Array, first: Int32Array, branch: Uint8Array, blind: Uint8Array, excess: number): number {
  const n = path.length;
  const maxRays = Math.round((SHOULDER_MAX_RAYS * n) / 360);
  let restored = 0;
  const restore = (end: number, direction: 1 | -1): void => {
    let meet = -1;
    for (let d = 0; d < maxRays; d++) {
      const a = (end + direction * d + n) % n;
      if (blind[a] === 1) return;
      if (path[a]! >= first[a]!) {
        meet = d;
        break;
      }
    }
    if (meet <= 0) return;
    const level = first[(end + direction * meet + n) % n]!;
    for (let d = 0; d < meet; d++) if (first[(end + direction * d + n) % n]! > level + excess) return;
    for (let d = 0; d < meet; d++) {
      const a = (end + direction * d + n) % n;
      path[a] = first[a]!;
      restored++;
    }
  };
  // Both ends of each run, walked away from it (a shoulder is restored once: its rays then meet).
  forEachBlindRun(branch, (before, after) => {
    restore(after, 1);
    restore(before, -1);
  });
  return restored;
}
