/**
 * Borders as radius functions of the angle around the catheter, and what moving the catheter or
 * opening the wall does to them. The renderer and the truth contours read the same functions, so
 * these transforms change both alike.
 */

export type RadiusFunction = (angleRad: number) => number;

/** Signed smallest difference a - b, in (-pi, pi]. */
export function angleDifferenceRad(a: number, b: number): number {
  const d = (a - b) % (2 * Math.PI);
  return d > Math.PI ? d - 2 * Math.PI : d <= -Math.PI ? d + 2 * Math.PI : d;
}

const SOLVE_TOLERANCE_MM = 1e-9;
const SOLVE_ITERATIONS = 30;

/**
 * The border `radius` (star-shaped around the origin) moved by (dx, dy), as a radius function
 * around the origin again: the ray at angle θ meets the moved border at the distance t where
 * |t·u(θ) - d| = radius(angle of t·u(θ) - d). Solved by Newton steps on t that take the border as
 * locally round (the radial derivative only); the borders are nearly round and the shift is less
 * than half the radius, so a few steps reach a nanometre.
 */
export function shiftedRadius(radius: RadiusFunction, dx: number, dy: number): RadiusFunction {
  if (dx === 0 && dy === 0) return radius;
  return (angleRad) => {
    const c = Math.cos(angleRad);
    const s = Math.sin(angleRad);
    // First guess: the border's own radius in this direction, seen from the shifted origin.
    let t = radius(angleRad) + dx * c + dy * s;
    for (let k = 0; k < SOLVE_ITERATIONS; k++) {
      const qx = t * c - dx;
      const qy = t * s - dy;
      const q = Math.hypot(qx, qy);
      const f = q - radius(Math.atan2(qy, qx));
      const slope = (qx * c + qy * s) / q;
      const next = t - f / slope;
      if (Math.abs(next - t) < SOLVE_TOLERANCE_MM) return next;
      t = next;
    }
    return t;
  };
}

/** The border turned by `rotationRad` and scaled by `scale` about the origin. */
export function turnedRadius(radius: RadiusFunction, rotationRad: number, scale: number): RadiusFunction {
  if (rotationRad === 0 && scale === 1) return radius;
  return (angleRad) => scale * radius(angleRad - rotationRad);
}

const SLOPE_STEP_RAD = 1e-4;

/**
 * The border with the angular sector [centre - halfArc, centre + halfArc] replaced by the cubic
 * Hermite curve through the radii and slopes at the sector's two edges: how an expert bridges an
 * ostium or a gap in the wall, continuing the border smoothly from one side to the other.
 */
export function bridgedRadius(radius: RadiusFunction, centreRad: number, halfArcRad: number): RadiusFunction {
  if (!(halfArcRad > 0)) return radius;
  const start = centreRad - halfArcRad;
  const end = centreRad + halfArcRad;
  const width = end - start;
  const r0 = radius(start);
  const r1 = radius(end);
  const slope0 = ((radius(start + SLOPE_STEP_RAD) - radius(start - SLOPE_STEP_RAD)) / (2 * SLOPE_STEP_RAD)) * width;
  const slope1 = ((radius(end + SLOPE_STEP_RAD) - radius(end - SLOPE_STEP_RAD)) / (2 * SLOPE_STEP_RAD)) * width;
  return (angleRad) => {
    const offset = angleDifferenceRad(angleRad, centreRad);
    if (Math.abs(offset) >= halfArcRad) return radius(angleRad);
    const u = (offset + halfArcRad) / width;
    const u2 = u * u;
    const u3 = u2 * u;
    return (2 * u3 - 3 * u2 + 1) * r0 + (u3 - 2 * u2 + u) * slope0 + (-2 * u3 + 3 * u2) * r1 + (u3 - u2) * slope1;
  };
}
