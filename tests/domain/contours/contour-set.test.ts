import { describe, expect, it } from 'vitest';
import { diceCoefficient, hausdorffDistance, rasterizePolygon } from '../../../src/domain/contours/agreement.ts';
import { buildRecordContours, RecordContoursSchema } from '../../../src/domain/contours/api.ts';
import { ContourSetSchema, mergeContours, type SliceContour } from '../../../src/domain/contours/contour-set.ts';

const square = (x: number, y: number, side: number) => [
  { x, y },
  { x: x + side, y },
  { x: x + side, y: y + side },
  { x, y: y + side },
];
const circle = (radius: number, count = 720) =>
  Array.from({ length: count }, (_, k) => ({ x: 100 + radius * Math.cos((2 * Math.PI * k) / count), y: 100 + radius * Math.sin((2 * Math.PI * k) / count) }));

describe('ContourSetSchema', () => {
  const contour = (slice: number, source: 'auto' | 'manual' = 'auto'): SliceContour => ({ slice, controlPoints: square(10, 10, 20), source });

  it('accepts one contour per slice, automatic or manual', () => {
    expect(ContourSetSchema.safeParse([contour(1), contour(2, 'manual')]).success).toBe(true);
    expect(ContourSetSchema.safeParse([]).success).toBe(true);
  });

  it('rejects a second contour for a slice, slice 0, fewer than 3 points, an unknown source or field', () => {
    const problems = (value: unknown) => ContourSetSchema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
    expect(problems([contour(3), contour(3, 'manual')])).toEqual(['slice 3 has two contours']);
    expect(problems([contour(0)])[0]).toMatch(/1-based/);
    expect(problems([{ ...contour(1), controlPoints: square(0, 0, 5).slice(0, 2) }])[0]).toMatch(/at least 3/);
    expect(problems([{ ...contour(1), source: 'ai' }])[0]).toMatch(/auto or manual/);
    expect(ContourSetSchema.safeParse([{ ...contour(1), color: '#9cc5c6' }]).success).toBe(false);
  });

  it('lets a manual contour win over the automatic one of its slice', () => {
    const merged = mergeContours([contour(1), contour(2), contour(3)], [contour(2, 'manual')]);
    expect(merged.map((c) => [c.slice, c.source])).toEqual([
      [1, 'auto'],
      [2, 'manual'],
      [3, 'auto'],
    ]);
  });
});

describe('buildRecordContours', () => {
  it('numbers slices from 1, rounds for the wire and adds the pullback analysis', () => {
    const detections = [6, 4, 2.123456, 5, 7].map((areaMm2) => ({
      controlPoints: square(1.234567, 2, 3),
      areaMm2,
      minDiameterMm: 1.000049,
      maxDiameterMm: 2,
    }));
    const body = buildRecordContours({ version: 'v1', pixelSpacingMm: 0.01, framesPerMm: 60, detections });
    expect(RecordContoursSchema.parse(body)).toEqual(body);
    expect(body.contours[0]!.controlPoints[0]).toEqual({ x: 1.23, y: 2 });
    expect(body.contours[2]).toMatchObject({ slice: 3, areaMm2: 2.1235, minDiameterMm: 1 });
    expect(body.mla).toEqual({ slice: 3, areaMm2: 2.1235 });
    expect(body.references).toEqual({ distal: { slice: 1, areaMm2: 6 }, proximal: { slice: 5, areaMm2: 7 } });
    expect(body.stenosisPercent).toBeCloseTo((100 * (6.5 - 2.1235)) / 6.5, 2);
    expect(buildRecordContours({ version: 'v1', pixelSpacingMm: 0.01, framesPerMm: 60, detections: [] })).toMatchObject({
      frameCount: 0,
      mla: null,
      stenosisPercent: null,
    });
  });
});

describe('agreement between contours', () => {
  it('rasterises by pixel centres', () => {
    const mask = rasterizePolygon(square(2, 3, 4), 10);
    expect(mask.reduce((sum, v) => sum + v, 0)).toBe(16);
    expect(mask[3 * 10 + 2]).toBe(1);
    expect(mask[3 * 10 + 6]).toBe(0);
  });

  it('gives Dice 1 for identical contours and 2ab/(a+b) for nested ones', () => {
    expect(diceCoefficient(circle(50), circle(50), 200)).toBe(1);
    const dice = diceCoefficient(circle(40), circle(50), 200);
    expect(dice).toBeCloseTo((2 * 40 * 40) / (40 * 40 + 50 * 50), 2);
    expect(diceCoefficient(square(0, 0, 10), square(50, 50, 10), 100)).toBe(0);
  });

  it('gives the Hausdorff distance of concentric circles as the difference of their radii', () => {
    expect(hausdorffDistance(circle(40), circle(50))).toBeCloseTo(10, 3);
    expect(hausdorffDistance(circle(40), circle(40))).toBeCloseTo(0, 6);
  });
});
