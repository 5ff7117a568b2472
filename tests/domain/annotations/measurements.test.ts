import { describe, expect, it } from 'vitest';
import {
  angleDegrees,
  areaMm2,
  formatMeasurement,
  round2,
  rulerLengthMm,
  shoelaceArea,
} from '../../../src/domain/annotations/measurements.ts';
import { measureAnnotation } from '../../../src/domain/annotations/kinds/index.ts';
import type { Point } from '../../../src/domain/annotations/manifest.ts';
import { circle, typedAngle, typedArea, typedRuler, typedText } from './fixtures.ts';

const deg = (d: number) => (d * Math.PI) / 180;

describe('rulerLengthMm', () => {
  it.each<[string, [number, number, number, number], number | undefined, number]>([
    ['a 3-4-5 triangle at the default spacing (px / 100)', [0, 0, 300, 400], undefined, 5],
    ['horizontal, 100 px', [10, 10, 110, 10], undefined, 1],
    ['vertical, upwards', [10, 510, 10, 10], undefined, 5],
    ['zero length', [7, 7, 7, 7], undefined, 0],
    ['a 5-12-13 triangle at 0.02 mm/px', [0, 0, 50, 120], 0.02, 2.6],
    ['a diagonal of a 100 px square', [0, 0, 100, 100], 0.01, Math.SQRT2],
  ])('%s', (_, [startX, startY, endX, endY], spacing, mm) => {
    expect(rulerLengthMm({ startX, startY, endX, endY }, spacing)).toBeCloseTo(mm, 10);
  });
});

describe('shoelaceArea', () => {
  it.each<[string, Point[], number]>([
    ['a unit square', [{ x: 0, y: 0 }, { x: 1, y: 0 }, { x: 1, y: 1 }, { x: 0, y: 1 }], 1],
    ['the same square the other way round', [{ x: 0, y: 1 }, { x: 1, y: 1 }, { x: 1, y: 0 }, { x: 0, y: 0 }], 1],
    ['a right triangle 30 x 40', [{ x: 0, y: 0 }, { x: 30, y: 0 }, { x: 0, y: 40 }], 600],
    ['collinear points', [{ x: 0, y: 0 }, { x: 1, y: 1 }, { x: 2, y: 2 }], 0],
  ])('%s', (_, points, expected) => expect(shoelaceArea(points)).toBeCloseTo(expected, 10));
});

describe('areaMm2', () => {
  it.each<[string, Point[]]>([
    ['no points', []],
    ['one point', [{ x: 1, y: 1 }]],
    ['two points', [{ x: 1, y: 1 }, { x: 100, y: 100 }]],
  ])('is 0 under 3 points: %s', (_, points) => expect(areaMm2(points)).toBe(0));

  // Catmull-Rom through 8 points of a circle runs slightly inside it (about 0.96% less area); the
  // cases keep the 2-decimal rounding small next to that.
  it.each<[number, number]>([
    [100, 1],
    [250, 0.1],
    [150, 0.05],
    [1000, 0.01],
  ])('a circle of radius %d px through 8 control points is within 1%% of pi r² (spacing %d mm)', (radius, spacing) => {
    const expected = Math.PI * (radius * spacing) ** 2;
    const measured = areaMm2(circle({ x: 256, y: 256 }, radius, 8), spacing);
    expect(Math.abs(measured - expected) / expected).toBeLessThan(0.01);
  });

  it('measures the smooth curve, not the polygon of the control points', () => {
    const octagon = circle({ x: 0, y: 0 }, 100, 8);
    expect(areaMm2(octagon, 1)).toBeGreaterThan(shoelaceArea(octagon));
  });

  it('scales with the square of the pixel spacing, rounded to 2 decimals', () => {
    const points = circle({ x: 0, y: 0 }, 100, 8);
    const px2 = areaMm2(points, 1);
    expect(areaMm2(points, 0.1)).toBeCloseTo(round2(px2 * 0.01), 10);
    expect(areaMm2(points)).toBe(round2(px2 * 0.0001));
    expect(Number.isInteger(Math.round(areaMm2(points, 0.037) * 100))).toBe(true);
    expect(areaMm2(points, 0.037).toString()).toMatch(/^\d+(\.\d{1,2})?$/);
  });
});

describe('round2', () => {
  it.each<[number, number]>([
    [1.005, 1.01],
    [1.004, 1],
    [2.675, 2.68],
    [0.125, 0.13],
    [3.14159, 3.14],
    [0, 0],
  ])('%d → %d', (value, rounded) => expect(round2(value)).toBe(rounded));
});

describe('angleDegrees', () => {
  it.each<[string, number, number, number]>([
    ['a right angle', 0, deg(-90), 90],
    ['the same right angle the other way', deg(-90), 0, 90],
    ['straight', 0, Math.PI, 180],
    ['closed', deg(30), deg(30), 0],
    ['across the ±180° seam', deg(170), deg(-170), 20],
    ['over a full turn', deg(10), deg(370 + 45), 45],
    ['rounded to whole degrees (44.6)', 0, deg(44.6), 45],
    ['rounded to whole degrees (44.4)', 0, deg(44.4), 44],
    ['reflex angles give the angle between the arms', 0, deg(270), 90],
  ])('%s', (_, startAngle, endAngle, degrees) => expect(angleDegrees({ startAngle, endAngle })).toBe(degrees));
});

describe('formatMeasurement', () => {
  it.each<[Parameters<typeof formatMeasurement>[0], number, string, string]>([
    ['ruler', 5, '5.00', 'mm'],
    ['ruler', 1.23456, '1.23', 'mm'],
    ['ruler', 0.005, '0.01', 'mm'],
    ['area', 78.54, '78.54', 'mm²'],
    ['area', 0, '0.00', 'mm²'],
    ['angle', 90, '90', '°'],
    ['angle', 44.6, '45', '°'],
  ])('%s %d → %s %s', (kind, value, text, unit) => expect(formatMeasurement(kind, value)).toEqual({ value: text, unit }));
});

describe('measureAnnotation', () => {
  it('gives each card its measurement, and none to a text note', () => {
    expect(measureAnnotation(typedRuler({ x: 0, y: 0 }, { x: 300, y: 400 }))).toEqual({ value: '5.00', unit: 'mm' });
    expect(measureAnnotation(typedArea([{ x: 0, y: 0 }, { x: 10, y: 0 }]))).toEqual({ value: '0.00', unit: 'mm²' });
    expect(measureAnnotation(typedAngle({ x: 100, y: 100 }, 50))).toEqual({ value: '90', unit: '°' });
    expect(measureAnnotation(typedText({ x: 0, y: 0 }))).toBeNull();
  });
});
