/**
 * Geometry of angle annotations (spec section 3). The two arms run from the origin (vertex) to the
 * start and end control points (the arm ends, which the user drags). The arc is drawn around the
 * origin with a radius of ARC_RADIUS_FRACTION of the shorter arm, from the start arm to the end arm
 * the short way round; the start and end intersects are where the arc's circle crosses each arm.
 * Angles are radians in image coordinates (x right, y down, so positive angles turn clockwise on
 * screen), as canvas `arc()` expects.
 */
import { angleDifference } from './measurements.ts';
import type { AngleAnnotation, AngleGeometry, Arc, Point } from './manifest.ts';

/** The arc's radius as a fraction of the shorter arm. */
export const ARC_RADIUS_FRACTION = 0.3;

export type AngleHandle = 'origin' | 'start' | 'end' | 'body';
export type AngleShape = { angle: AngleGeometry; arc: Arc };

const copy = ({ x, y }: Point): Point => ({ x, y });

/**
 * The full geometry from the vertex and the two arm ends. An arm of zero length keeps the direction
 * it had in `previous` (or points along angle 0 without one).
 */
export function angleFromArms(origin: Point, startControl: Point, endControl: Point, previous?: AngleShape): AngleShape {
  const direction = (end: Point, fallback: number | undefined) =>
    end.x === origin.x && end.y === origin.y ? (fallback ?? 0) : Math.atan2(end.y - origin.y, end.x - origin.x);
  const startAngle = direction(startControl, previous?.angle.startAngle);
  const endAngle = direction(endControl, previous?.angle.endAngle);
  const shorterArm = Math.min(
    Math.hypot(startControl.x - origin.x, startControl.y - origin.y),
    Math.hypot(endControl.x - origin.x, endControl.y - origin.y),
  );
  const radius = shorterArm * ARC_RADIUS_FRACTION;
  const onCircle = (angle: number): Point => ({
    x: origin.x + radius * Math.cos(angle),
    y: origin.y + radius * Math.sin(angle),
  });
  return {
    angle: {
      origin: copy(origin),
      startAngle,
      endAngle,
      startIntersect: onCircle(startAngle),
      endIntersect: onCircle(endAngle),
      startControl: copy(startControl),
      endControl: copy(endControl),
    },
    arc: {
      origin: copy(origin),
      radius,
      // Sweep the interior angle: decreasing angles (counter-clockwise on screen) when shorter.
      counterClockwise: angleDifference(startAngle, endAngle) < 0,
      startAngle,
      endAngle,
    },
  };
}

/**
 * A 90-degree angle with its vertex at `center`: the start arm points right, the end arm up, both
 * `armLength` pixels long (an "L").
 */
export function createRightAngle(center: Point, armLength: number): AngleShape {
  return angleFromArms(center, { x: center.x + armLength, y: center.y }, { x: center.x, y: center.y - armLength });
}

/**
 * Moves one handle and recomputes the arc, intersects and control points: 'origin' moves the vertex
 * (arm ends stay), 'start' and 'end' move an arm end, 'body' translates everything by `to - from`
 * (without `from`, the vertex goes to `to`). Returns a new annotation.
 */
export function moveAngleHandle<T extends AngleAnnotation>(annotation: T, handle: AngleHandle, to: Point, from?: Point): T {
  const { origin, startControl, endControl } = annotation.angle;
  let shape: AngleShape;
  switch (handle) {
    case 'origin':
      shape = angleFromArms(to, startControl, endControl, annotation);
      break;
    case 'start':
      shape = angleFromArms(origin, to, endControl, annotation);
      break;
    case 'end':
      shape = angleFromArms(origin, startControl, to, annotation);
      break;
    case 'body': {
      const base = from ?? origin;
      const dx = to.x - base.x;
      const dy = to.y - base.y;
      const shift = (p: Point): Point => ({ x: p.x + dx, y: p.y + dy });
      shape = angleFromArms(shift(origin), shift(startControl), shift(endControl), annotation);
      break;
    }
  }
  return { ...annotation, angle: shape.angle, arc: shape.arc };
}
