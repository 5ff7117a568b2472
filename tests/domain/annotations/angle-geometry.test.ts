import { describe, expect, it } from 'vitest';
import { angleFromArms, ARC_RADIUS_FRACTION, createRightAngle, moveAngleHandle } from '../../../src/domain/annotations/angle-geometry.ts';
import { angleDegrees } from '../../../src/domain/annotations/measurements.ts';
import { AngleAnnotationSchema, type AngleAnnotation, type Point } from '../../../src/domain/annotations/manifest.ts';
import { angle } from './fixtures.ts';

const near = (actual: Point, expected: Point) => {
  expect(actual.x).toBeCloseTo(expected.x, 9);
  expect(actual.y).toBeCloseTo(expected.y, 9);
};

/** Every invariant of a consistent angle annotation. */
function expectConsistent(a: AngleAnnotation) {
  const { origin, startControl, endControl, startAngle, endAngle, startIntersect, endIntersect } = a.angle;
  const armStart = Math.hypot(startControl.x - origin.x, startControl.y - origin.y);
  const armEnd = Math.hypot(endControl.x - origin.x, endControl.y - origin.y);
  expect(a.arc.origin).toEqual(origin);
  expect(a.arc.radius).toBeCloseTo(Math.min(armStart, armEnd) * ARC_RADIUS_FRACTION, 9);
  expect(a.arc.startAngle).toBe(startAngle);
  expect(a.arc.endAngle).toBe(endAngle);
  near(startIntersect, { x: origin.x + a.arc.radius * Math.cos(startAngle), y: origin.y + a.arc.radius * Math.sin(startAngle) });
  near(endIntersect, { x: origin.x + a.arc.radius * Math.cos(endAngle), y: origin.y + a.arc.radius * Math.sin(endAngle) });
  expect(AngleAnnotationSchema.safeParse(a).success).toBe(true);
}

describe('createRightAngle', () => {
  it('is a 90-degree L with its vertex at the centre, arms right and up', () => {
    const { angle: geometry, arc } = createRightAngle({ x: 256, y: 200 }, 100);
    expect(geometry.origin).toEqual({ x: 256, y: 200 });
    expect(geometry.startControl).toEqual({ x: 356, y: 200 });
    expect(geometry.endControl).toEqual({ x: 256, y: 100 });
    expect(geometry.startAngle).toBe(0);
    expect(geometry.endAngle).toBeCloseTo(-Math.PI / 2, 12);
    expect(angleDegrees(geometry)).toBe(90);
    expect(arc.radius).toBeCloseTo(100 * ARC_RADIUS_FRACTION, 12);
    expect(arc.counterClockwise).toBe(true); // from 0 to -90° the short way is counter-clockwise on screen
    near(geometry.startIntersect, { x: 256 + arc.radius, y: 200 });
    near(geometry.endIntersect, { x: 256, y: 200 - arc.radius });
  });
});

describe('moveAngleHandle', () => {
  const base = angle({ x: 100, y: 100 }, 50);

  it.each<[string, Parameters<typeof moveAngleHandle>[1], Point, Point | undefined, number]>([
    ['the end arm to the left: a straight angle', 'end', { x: 40, y: 100 }, undefined, 180],
    ['the end arm to 45° below the start arm', 'end', { x: 150, y: 150 }, undefined, 45],
    ['the start arm onto the end arm', 'start', { x: 100, y: 20 }, undefined, 0],
    ['the body by (+30, -10)', 'body', { x: 130, y: 90 }, { x: 100, y: 100 }, 90],
  ])('moves %s', (_, handle, to, from, degrees) => {
    const moved = moveAngleHandle(base, handle, to, from);
    expectConsistent(moved);
    expect(angleDegrees(moved.angle)).toBe(degrees);
  });

  it('moving the origin keeps the arm ends and recomputes the angle', () => {
    const moved = moveAngleHandle(base, 'origin', { x: 150, y: 50 });
    expect(moved.angle.startControl).toEqual(base.angle.startControl);
    expect(moved.angle.endControl).toEqual(base.angle.endControl);
    expect(moved.angle.origin).toEqual({ x: 150, y: 50 });
    // Vertex at the former corner of the square: arms go down and left, 90° apart.
    expect(angleDegrees(moved.angle)).toBe(90);
  });

  it('moving the body translates everything and keeps the angle and radius', () => {
    const moved = moveAngleHandle(base, 'body', { x: 130, y: 90 }, { x: 100, y: 100 });
    near(moved.angle.origin, { x: 130, y: 90 });
    near(moved.angle.startControl, { x: base.angle.startControl.x + 30, y: base.angle.startControl.y - 10 });
    expect(moved.arc.radius).toBeCloseTo(base.arc.radius, 9);
    expect(moved.angle.startAngle).toBeCloseTo(base.angle.startAngle, 12);
  });

  it('moving the body without a start point puts the vertex at the pointer', () => {
    near(moveAngleHandle(base, 'body', { x: 0, y: 0 }).angle.origin, { x: 0, y: 0 });
  });

  it('takes the shorter arm for the radius and sweeps the interior angle', () => {
    const moved = moveAngleHandle(base, 'end', { x: 110, y: 110 }); // short arm, 45° below the start arm
    expect(moved.arc.radius).toBeCloseTo(Math.SQRT2 * 10 * ARC_RADIUS_FRACTION, 9);
    expect(moved.arc.counterClockwise).toBe(false);
    expectConsistent(moved);
  });

  it('keeps the previous direction of an arm dragged onto the vertex', () => {
    const moved = moveAngleHandle(base, 'end', { x: 100, y: 100 });
    expect(moved.angle.endAngle).toBe(base.angle.endAngle);
    expect(moved.arc.radius).toBe(0);
    expectConsistent(moved);
  });

  it('returns a new annotation and keeps the other fields', () => {
    const moved = moveAngleHandle(base, 'start', { x: 200, y: 100 });
    expect(moved).not.toBe(base);
    expect(base.angle.startControl).toEqual({ x: 150, y: 100 });
    expect({ ...moved, angle: undefined, arc: undefined }).toEqual({ ...base, angle: undefined, arc: undefined });
  });

  it('angleFromArms agrees with createRightAngle', () => {
    expect(angleFromArms({ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 0, y: -10 })).toEqual(createRightAngle({ x: 0, y: 0 }, 10));
  });
});
