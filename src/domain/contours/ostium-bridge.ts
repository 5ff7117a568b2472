/**
 * The lumen across a side branch's ostium (issue 23). The branch's rays see no lumen wall, and blind
 * rays are bridged by a straight line in radius between the seeing rays at the run's ends
 * (radial-profile.ts). The lumen's curve does not stop at the ostium: where the wall beside it is
 * still turning outwards, a chord cuts inside the course an expert draws, which continues the wall
 * smoothly from one side to the other (0.05–0.1 mm in the middle of a wide ostium). bridgeOstia
 * lifts the chord over every blind run that holds a branch ray to the cubic Hermite curve through
 * the end radii with the slopes the seeing rays beside the run have.
 *
 * Only lifts: the second lumen search pulls the shoulders beside an ostium in (ostium-shoulders.ts),
 * so the seeing rays there slope inwards more often than the wall does, and a bridge allowed to sag
 * below the chord followed them (tuning 1107/1488–1491, lumen Dice −0.01). The slopes are measured
 * over 40° for the same reason: over 6° the refined radii's steps gave slopes that bent a 100° bridge
 * by 0.2 mm.
 */
import { forEachBlindRun } from './radial-profile.ts';

/** Rays of 360 beside a run over which its end slope is measured (least squares). */
const SLOPE_RAYS = 40;

/**
 * The slope dr/d(ray), in radius units per ray, of the seeing rays next to `end`, walked in
 * `direction` away from the run (up to the next blind ray); 0 when fewer than 3 rays see there.
 */
function endSlope(radii: Float32Array, blind: Uint8Array, end: number, direction: 1 | -1, count: number): number {
  const n = radii.length;
  let s = 0;
  let sx = 0;
  let sy = 0;
  let sxx = 0;
  let sxy = 0;
  for (let d = 0; d < count; d++) {
    const a = (end + direction * d + n) % n;
    if (blind[a] === 1) break;
    const x = direction * d;
    const y = radii[a]!;
    s++;
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  const det = s * sxx - sx * sx;
  return s >= 3 && det > 0 ? (s * sxy - sx * sy) / det : 0;
}

/**
 * Over every run of `blind` rays holding a `branch` ray, `radii` (already interpolated straight)
 * rise to the cubic Hermite bridge between the run's seeing ends where it lies outside the chord.
 * Returns how many runs it bridged.
 */
export function bridgeOstia(radii: Float32Array, blind: Uint8Array, branch: Uint8Array): number {
  const n = radii.length;
  const count = Math.max(3, Math.round((SLOPE_RAYS * n) / 360));
  let bridged = 0;
  forEachBlindRun(blind, (before, after, gap) => {
    let holdsBranch = false;
    for (let g = 1; g < gap && !holdsBranch; g++) holdsBranch = branch[(before + g) % n] === 1;
    if (!holdsBranch) return;
    const r0 = radii[before]!;
    const r1 = radii[after]!;
    const m0 = endSlope(radii, blind, before, -1, count) * gap;
    const m1 = endSlope(radii, blind, after, 1, count) * gap;
    for (let g = 1; g < gap; g++) {
      const u = g / gap;
      const u2 = u * u;
      const u3 = u2 * u;
      const hermite = (2 * u3 - 3 * u2 + 1) * r0 + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * r1 + (u3 - u2) * m1;
      const a = (before + g) % n;
      radii[a] = Math.max(radii[a]!, hermite);
    }
    bridged++;
  });
  return bridged;
}
