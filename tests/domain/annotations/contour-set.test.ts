import { describe, expect, it } from 'vitest';
import { diceCoefficient, hausdorffDistance, rasterizePolygon } from '../../../src/domain/contours/agreement.ts';
import { buildRecordContours, hasBorder, RecordContoursSchema, type DetectedContour } from '../../../src/domain/contours/api.ts';

/** A slice that must have its borders (these detections are all readable). */
function bordered(contour: DetectedContour | undefined) {
  if (!contour || !hasBorder(contour)) throw new Error('expected a slice with borders');
  return contour;
}
import { borderOf, ContourSetSchema, findContour, mergeContours, type SliceContour } from '../../../src/domain/annotations/contour-set.ts';

const square = (x: number, y: number, side: number) => [
  { x, y },
  { x: x + side, y },
  { x: x + side, y: y + side },
  { x, y: y + side },
];
const circle = (radius: number, count = 720) =>
  Array.from({ length: count }, (_, k) => ({ x: 100 + radius * Math.cos((2 * Math.PI * k) / count), y: 100 + radius * Math.sin((2 * Math.PI * k) / count) }));

describe('ContourSetSchema', () => {
  const contour = (slice: number, source: 'auto' | 'manual' = 'auto', border?: 'lumen' | 'vessel'): SliceContour => ({
    slice,
    ...(border ? { border } : {}),
    controlPoints: square(10, 10, 20),
    source,
  });
  const problems = (value: unknown) => ContourSetSchema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];

  it('accepts one contour per slice and border, automatic or manual', () => {
    expect(ContourSetSchema.safeParse([contour(1), contour(2, 'manual')]).success).toBe(true);
    expect(ContourSetSchema.safeParse([contour(1, 'manual', 'lumen'), contour(1, 'manual', 'vessel'), contour(2, 'auto', 'vessel')]).success).toBe(true);
    expect(ContourSetSchema.safeParse([]).success).toBe(true);
  });

  it('reads a contour without a border (as saved before the vessel border) as a lumen contour, and keeps it as it was', () => {
    const old = [{ slice: 4, controlPoints: square(10, 10, 20), source: 'manual' }];
    const parsed = ContourSetSchema.parse(old);
    expect(parsed).toEqual(old);
    expect(borderOf(parsed[0]!)).toBe('lumen');
    expect(borderOf(contour(1, 'auto', 'vessel'))).toBe('vessel');
    // The implied lumen and an explicit one are the same border: two of them on a slice are refused.
    expect(problems([contour(3), contour(3, 'manual', 'lumen')])).toEqual(['slice 3 has two lumen contours']);
  });

  it('rejects a second contour for a slice and border, slice 0, fewer than 3 points, an unknown border, source or field', () => {
    expect(problems([contour(3), contour(3, 'manual')])).toEqual(['slice 3 has two lumen contours']);
    expect(problems([contour(3, 'manual', 'vessel'), contour(3, 'auto', 'vessel')])).toEqual(['slice 3 has two vessel contours']);
    expect(problems([contour(0)])[0]).toMatch(/1-based/);
    expect(problems([{ ...contour(1, 'manual', 'vessel'), controlPoints: square(0, 0, 5).slice(0, 2) }])[0]).toMatch(/at least 3/);
    expect(problems([{ ...contour(1), border: 'x' }])).toEqual(['border must be lumen or vessel']);
    expect(problems([{ ...contour(1), source: 'ai' }])[0]).toMatch(/auto or manual/);
    expect(ContourSetSchema.safeParse([{ ...contour(1), color: '#9cc5c6' }]).success).toBe(false);
  });

  it('lets a manual contour win over the automatic one of its slice and border', () => {
    const merged = mergeContours([contour(1), contour(2), contour(2, 'auto', 'vessel'), contour(3)], [contour(2, 'manual', 'vessel')]);
    expect(merged.map((c) => [c.slice, borderOf(c), c.source])).toEqual([
      [1, 'lumen', 'auto'],
      [2, 'lumen', 'auto'],
      [2, 'vessel', 'manual'],
      [3, 'lumen', 'auto'],
    ]);
    expect(findContour(merged, 2, 'vessel')?.source).toBe('manual');
    expect(findContour(merged, 3, 'vessel')).toBeNull();
  });
});

describe('buildRecordContours', () => {
  /** A lumen square of side 3 and a vessel square of side 6 around it, with the given areas. */
  const detection = (areaMm2: number, vesselAreaMm2: number, confidence = 0.9) => ({
    controlPoints: square(1.234567, 2, 3),
    areaMm2,
    minDiameterMm: 1.000049,
    maxDiameterMm: 2,
    vessel: { controlPoints: square(0, 0, 6), areaMm2: vesselAreaMm2 },
    confidence,
  });

  it('numbers slices from 1, rounds for the wire and adds the pullback analysis', () => {
    const detections = [6, 4, 2.123456, 5, 7].map((area) => detection(area, 12));
    const body = buildRecordContours({ version: 'v1', pixelSpacingMm: 0.01, framesPerMm: 60, detections });
    expect(RecordContoursSchema.parse(body)).toEqual(body);
    expect(bordered(body.contours[0]).controlPoints[0]).toEqual({ x: 1.23, y: 2 });
    expect(body.contours[2]).toMatchObject({ slice: 3, areaMm2: 2.1235, minDiameterMm: 1 });
    expect(body.mla).toEqual({ slice: 3, areaMm2: 2.1235 });
    expect(body.references).toEqual({ distal: { slice: 1, areaMm2: 6 }, proximal: { slice: 5, areaMm2: 7 } });
    expect(body.stenosisPercent).toBeCloseTo((100 * (6.5 - 2.1235)) / 6.5, 2);
    expect(buildRecordContours({ version: 'v1', pixelSpacingMm: 0.01, framesPerMm: 60, detections: [] })).toMatchObject({
      frameCount: 0,
      mla: null,
      stenosisPercent: null,
      maxPlaqueBurden: null,
      lowConfidenceSlices: [],
    });
  });

  it('adds the vessel, plaque area, plaque burden (4 decimals), eccentricity and confidence of every slice', () => {
    const body = buildRecordContours({ version: 'v1', pixelSpacingMm: 0.01, framesPerMm: 60, detections: [detection(4, 10.000049), detection(3, 9)] });
    expect(body.contours[0]).toMatchObject({
      vessel: { controlPoints: square(0, 0, 6), areaMm2: 10 },
      plaqueAreaMm2: 6,
      plaqueBurden: 0.6,
      eccentricity: 0.5,
      confidence: 0.9,
    });
    // (9 − 3) / 9 = 0.666…, sent to 4 decimals.
    expect(bordered(body.contours[1]).plaqueBurden).toBe(0.6667);
    expect(body.maxPlaqueBurden).toEqual({ slice: 2, plaqueBurden: 0.6667 });
  });

  it('lists the low-confidence slices, clamping confidences outside 0..1 and taking one that is not a number as none', () => {
    const confidences = [0.9, 0.2, 1.7, Number.NaN, 0.5, -0.1];
    const body = buildRecordContours({ version: 'v1', pixelSpacingMm: 0.01, framesPerMm: 60, detections: confidences.map((c) => detection(4, 10, c)) });
    expect(body.contours.map((c) => c.confidence)).toEqual([0.9, 0.2, 1, 0, 0.5, 0]);
    expect(body.lowConfidenceSlices).toEqual([2, 4, 6]);
    expect(RecordContoursSchema.parse(body)).toEqual(body);
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
