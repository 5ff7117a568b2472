/**
 * Angles: two arms from a vertex (angle-geometry.ts), handles at the vertex and both arm ends,
 * measured in whole degrees. Every move goes through moveAngleHandle so the arc follows the arms.
 */
import { moveAngleHandle } from '../angle-geometry.ts';
import { angleDegrees, formatMeasurement } from '../measurements.ts';
import type { AnnotationKind, AnnotationOf } from './annotation-kind.ts';
import { distanceToSegment, shift } from './geometry.ts';

type Angle = AnnotationOf<'angle'>;

export const angleKind: AnnotationKind<Angle> = {
  measure: (angle) => formatMeasurement('angle', angleDegrees(angle.angle)),
  handles: ({ angle }) => [
    { handle: 'origin', point: angle.origin },
    { handle: 'start', point: angle.startControl },
    { handle: 'end', point: angle.endControl },
  ],
  distance: ({ angle }, p) => Math.min(distanceToSegment(p, angle.origin, angle.startControl), distanceToSegment(p, angle.origin, angle.endControl)),
  translate: (angle, dx, dy) => moveAngleHandle(angle, 'body', shift(angle.angle.origin, dx, dy), angle.angle.origin),
  moveHandle: (angle, handle, to) => (handle === 'origin' || handle === 'start' || handle === 'end' ? moveAngleHandle(angle, handle, to) : angle),
  anchor: (angle) => angle.angle.origin,
};
