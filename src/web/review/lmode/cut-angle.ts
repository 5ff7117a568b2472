/**
 * The L-mode cut angle, in whole degrees in [0, 360): 0 along the image's +x axis, increasing
 * towards +y (clockwise on screen). Shared by the B-mode panel (which draws and turns the cut
 * line) and the L-mode panel (which samples along it).
 */
export const DEFAULT_CUT_ANGLE_DEG = 90;
export const CUT_ANGLE_STEP_DEG = 1;
export const CUT_ANGLE_BIG_STEP_DEG = 10;

export function normalizeAngleDeg(angleDeg: number): number {
  const whole = Math.round(angleDeg) % 360;
  // `+ 0` turns -0 into 0.
  return (whole < 0 ? whole + 360 : whole) + 0;
}

export function degToRad(angleDeg: number): number {
  return (angleDeg * Math.PI) / 180;
}

/** The angle a key turns the cut line to, or null for a key that does not turn it. */
export function angleForKey(angleDeg: number, key: string, shift: boolean): number | null {
  const step = shift ? CUT_ANGLE_BIG_STEP_DEG : CUT_ANGLE_STEP_DEG;
  if (key === 'ArrowRight' || key === 'ArrowUp') return normalizeAngleDeg(angleDeg + step);
  if (key === 'ArrowLeft' || key === 'ArrowDown') return normalizeAngleDeg(angleDeg - step);
  return null;
}

/** The angle of the direction from the frame centre to an image point (a dragged handle). */
export function angleTowards(centre: { x: number; y: number }, point: { x: number; y: number }): number {
  return normalizeAngleDeg((Math.atan2(point.y - centre.y, point.x - centre.x) * 180) / Math.PI);
}

export interface CutAngleStore {
  get(): number;
  set(angleDeg: number): void;
  subscribe(listener: () => void): () => void;
}

export function createCutAngleStore(initialDeg = DEFAULT_CUT_ANGLE_DEG): CutAngleStore {
  let angle = normalizeAngleDeg(initialDeg);
  const listeners = new Set<() => void>();
  return {
    get: () => angle,
    set(angleDeg) {
      const next = normalizeAngleDeg(angleDeg);
      if (next === angle) return;
      angle = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
