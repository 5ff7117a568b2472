/**
 * The L-mode image has one column per B-mode frame, so its x axis is the slice axis:
 * slice s (1-based) covers columns [(s - 1) / N, s / N) of the image width.
 */
export function lmodeXToSlice(imageX: number, imageWidth: number, sliceCount: number): number {
  if (sliceCount < 1 || imageWidth <= 0) return 1;
  const slice = Math.floor((imageX / imageWidth) * sliceCount) + 1;
  return Math.min(sliceCount, Math.max(1, slice));
}

/** The image x of the cursor line: the middle of the slice's column span. */
export function lmodeSliceToX(slice: number, imageWidth: number, sliceCount: number): number {
  if (sliceCount < 1) return 0;
  return ((slice - 0.5) / sliceCount) * imageWidth;
}

/** Runs [start, end) of consecutive indices for which `has` holds: the L-mode's loading bar. */
export function loadedRuns(count: number, has: (index: number) => boolean): [number, number][] {
  const runs: [number, number][] = [];
  let start = -1;
  for (let i = 0; i < count; i++) {
    if (has(i)) {
      if (start < 0) start = i;
    } else if (start >= 0) {
      runs.push([start, i]);
      start = -1;
    }
  }
  if (start >= 0) runs.push([start, count]);
  return runs;
}

/**
 * Wheel notches to slice steps: a mouse notch (100 px, or any line/page delta) is one slice;
 * trackpads' small pixel deltas accumulate until they add up to a notch.
 * Returns the steps to take and the remainder to carry to the next event.
 */
export const WHEEL_NOTCH_PX = 100;
export function wheelSteps(carry: number, deltaY: number, deltaMode: number): { steps: number; carry: number } {
  if (deltaMode !== 0) return { steps: Math.sign(deltaY), carry: 0 };
  const total = carry + deltaY;
  // A whole notch or more counts as exactly one step: one slice per notch, whatever the device scale.
  if (Math.abs(deltaY) >= WHEEL_NOTCH_PX / 2) return { steps: Math.sign(deltaY), carry: 0 };
  const steps = Math.trunc(total / WHEEL_NOTCH_PX);
  return { steps, carry: total - steps * WHEEL_NOTCH_PX };
}
