import { describe, expect, it } from 'vitest';
import type { Point } from '../../../src/domain/annotations/manifest.ts';
import {
  analysePullback,
  diametersThroughCentroid,
  eccentricity,
  enclosesContour,
  findMaxPlaqueBurden,
  findMinimalLumenArea,
  findReferenceSlices,
  lumenAreaMm2,
  measureContour,
  plaqueOf,
  polygonCentroid,
  referenceAreaMm2,
  stenosisPercent,
} from '../../../src/domain/contours/measurements.ts';

/** `count` points of an ellipse with semi-axes a, b (px), turned by `rotation`, centred at (cx, cy). */
function ellipse(a: number, b: number, count: number, cx = 256, cy = 256, rotation = 0): Point[] {
  return Array.from({ length: count }, (_, k) => {
    const t = (2 * Math.PI * k) / count;
    const x = a * Math.cos(t);
    const y = b * Math.sin(t);
    return { x: cx + x * Math.cos(rotation) - y * Math.sin(rotation), y: cy + x * Math.sin(rotation) + y * Math.cos(rotation) };
  });
}

describe('lumenAreaMm2', () => {
  it('measures a circle drawn through 16 control points as πr² (within 0.1%)', () => {
    // 100 px at 0.01 mm/px: a 1 mm radius.
    expect(lumenAreaMm2(ellipse(100, 100, 16), 0.01)).toBeCloseTo(Math.PI, 2);
    expect(Math.abs(lumenAreaMm2(ellipse(100, 100, 16), 0.01) / Math.PI - 1)).toBeLessThan(0.001);
  });

  it('measures an ellipse as πab, wherever it is and however it is turned', () => {
    const expected = Math.PI * 1.5 * 0.75;
    for (const shape of [ellipse(150, 75, 24), ellipse(150, 75, 24, 200, 300, 0.7), ellipse(150, 75, 360, 260, 250, 2)]) {
      expect(Math.abs(lumenAreaMm2(shape, 0.01) / expected - 1)).toBeLessThan(0.002);
    }
  });

  it('scales with the pixel spacing squared and ignores the orientation of the points', () => {
    const circle = ellipse(50, 50, 16);
    expect(lumenAreaMm2(circle, 0.02)).toBeCloseTo(4 * lumenAreaMm2(circle, 0.01), 10);
    expect(lumenAreaMm2([...circle].reverse(), 0.01)).toBeCloseTo(lumenAreaMm2(circle, 0.01), 10);
  });

  it('is 0 under 3 points', () => {
    expect(lumenAreaMm2([], 0.01)).toBe(0);
    expect(lumenAreaMm2([{ x: 0, y: 0 }, { x: 10, y: 0 }], 0.01)).toBe(0);
  });
});

describe('diametersThroughCentroid and eccentricity', () => {
  it('gives a circle the same min and max diameter, eccentricity 0', () => {
    const d = diametersThroughCentroid(ellipse(100, 100, 16), 0.01);
    expect(d.min).toBeGreaterThan(1.99);
    expect(d.max).toBeLessThan(2.01);
    expect(eccentricity(d)).toBeLessThan(0.01);
  });

  it('gives an ellipse its minor and major axes through the centre, eccentricity 1 − b/a', () => {
    for (const rotation of [0, 0.3, 1.2]) {
      const d = diametersThroughCentroid(ellipse(150, 75, 32, 240, 270, rotation), 0.01);
      expect(d.min).toBeCloseTo(1.5, 2);
      expect(d.max).toBeCloseTo(3, 2);
      expect(eccentricity(d)).toBeCloseTo(0.5, 2);
    }
  });

  it('measures through the area centroid, not through the catheter', () => {
    const shape = ellipse(80, 40, 360, 300, 210);
    const centre = polygonCentroid(shape);
    expect(centre.x).toBeCloseTo(300, 6);
    expect(centre.y).toBeCloseTo(210, 6);
    const d = diametersThroughCentroid(shape, 0.01);
    expect(d.min).toBeCloseTo(0.8, 2);
    expect(d.max).toBeCloseTo(1.6, 2);
  });

  it('is 0 without a contour, and measureContour bundles area and diameters', () => {
    expect(diametersThroughCentroid([{ x: 1, y: 1 }], 0.01)).toEqual({ min: 0, max: 0 });
    expect(eccentricity({ min: 0, max: 0 })).toBe(0);
    const circle = ellipse(100, 100, 16);
    const measured = measureContour(circle, 0.01);
    expect(measured.areaMm2).toBe(lumenAreaMm2(circle, 0.01));
    expect(measured.minDiameterMm).toBe(diametersThroughCentroid(circle, 0.01).min);
  });
});

describe('minimal lumen area and reference slices', () => {
  //                0    1    2    3    4    5    6    7    8    9   10   11   12
  const areas = [6.0, 7.5, 7.0, 6.5, 5.0, 3.0, 2.0, 2.5, 4.0, 6.0, 8.5, 8.0, 9.9];

  it('finds the smallest area, the first of equal ones, and skips slices without a contour', () => {
    expect(findMinimalLumenArea(areas)).toEqual({ index: 6, areaMm2: 2 });
    expect(findMinimalLumenArea([3, 1, 1, 2])).toEqual({ index: 1, areaMm2: 1 });
    expect(findMinimalLumenArea([Number.NaN, 4, Number.NaN, 3.5])).toEqual({ index: 3, areaMm2: 3.5 });
    expect(findMinimalLumenArea([])).toBeNull();
    expect(findMinimalLumenArea(new Float64Array([Number.NaN]))).toBeNull();
  });

  it('takes the largest lumen within the window on each side: distal below the MLA, proximal above', () => {
    // 0.5 frames per mm: a 10 mm window is 5 slices each way (slices 1..5 distal, 7..11 proximal).
    expect(findReferenceSlices(areas, 6, 0.5, 10)).toEqual({ distal: { index: 1, areaMm2: 7.5 }, proximal: { index: 10, areaMm2: 8.5 } });
    // A 6 mm window is 3 slices: 3..5 and 7..9.
    expect(findReferenceSlices(areas, 6, 0.5, 6)).toEqual({ distal: { index: 3, areaMm2: 6.5 }, proximal: { index: 9, areaMm2: 6 } });
    // The default window is 10 mm; at 60 frames/mm it covers the whole profile.
    expect(findReferenceSlices(areas, 6, 60)).toEqual({ distal: { index: 1, areaMm2: 7.5 }, proximal: { index: 12, areaMm2: 9.9 } });
  });

  it('has no reference on a side without slices, and skips slices without a contour', () => {
    expect(findReferenceSlices([2, 3, 4], 0, 1, 10)).toEqual({ distal: null, proximal: { index: 2, areaMm2: 4 } });
    expect(findReferenceSlices([5, 4, 2], 2, 1, 10)).toEqual({ distal: { index: 0, areaMm2: 5 }, proximal: null });
    expect(findReferenceSlices([Number.NaN, 4, 2, Number.NaN], 2, 1, 10)).toEqual({ distal: { index: 1, areaMm2: 4 }, proximal: null });
    expect(() => findReferenceSlices(areas, 6, 0)).toThrow(RangeError);
  });

  it('computes the area stenosis against the mean reference area', () => {
    expect(stenosisPercent(2, 8)).toBe(75);
    expect(stenosisPercent(8, 8)).toBe(0);
    expect(stenosisPercent(9, 8)).toBeCloseTo(-12.5, 10);
    expect(() => stenosisPercent(2, 0)).toThrow(RangeError);
    expect(referenceAreaMm2({ distal: { index: 0, areaMm2: 6 }, proximal: { index: 9, areaMm2: 8 } })).toBe(7);
    expect(referenceAreaMm2({ distal: null, proximal: { index: 9, areaMm2: 8 } })).toBe(8);
    expect(referenceAreaMm2({ distal: null, proximal: null })).toBeNull();
  });

  it('analyses a whole pullback profile', () => {
    const analysis = analysePullback(areas, 0.5, 10);
    expect(analysis.mla).toEqual({ index: 6, areaMm2: 2 });
    expect(analysis.references).toEqual({ distal: { index: 1, areaMm2: 7.5 }, proximal: { index: 10, areaMm2: 8.5 } });
    expect(analysis.stenosisPercent).toBeCloseTo(75, 10);
    expect(analysePullback([], 60)).toEqual({ mla: null, references: { proximal: null, distal: null }, stenosisPercent: null });
    expect(analysePullback([4], 60).stenosisPercent).toBeNull();
  });
});

describe('plaque, eccentricity and the maximal plaque burden', () => {
  it('gives the plaque + media area as vessel − lumen and the burden as its share of the vessel', () => {
    expect(plaqueOf(4, 10)).toEqual({ plaqueAreaMm2: 6, plaqueBurden: 0.6 });
    expect(plaqueOf(10, 10)).toEqual({ plaqueAreaMm2: 0, plaqueBurden: 0 });
    // Concentric circles of 1 mm and 2 mm radius: burden 1 − (1/2)² = 0.75 whatever the pixel spacing.
    const lumen = lumenAreaMm2(ellipse(100, 100, 16), 0.01);
    const vessel = lumenAreaMm2(ellipse(200, 200, 16), 0.01);
    expect(plaqueOf(lumen, vessel).plaqueBurden).toBeCloseTo(0.75, 3);
  });

  it('never reports a negative plaque: a lumen larger than its vessel, or no vessel, gives 0', () => {
    expect(plaqueOf(12, 10)).toEqual({ plaqueAreaMm2: 0, plaqueBurden: 0 });
    expect(plaqueOf(3, 0)).toEqual({ plaqueAreaMm2: 0, plaqueBurden: 0 });
  });

  it('uses the consensus eccentricity (max − min) / max', () => {
    expect(eccentricity({ min: 2, max: 4 })).toBe(0.5);
    expect(eccentricity({ min: 3, max: 3 })).toBe(0);
  });

  it('finds the largest plaque burden, the first of equal ones, skipping slices without a figure', () => {
    expect(findMaxPlaqueBurden([0.4, 0.7, 0.5, 0.7])).toEqual({ index: 1, plaqueBurden: 0.7 });
    expect(findMaxPlaqueBurden([Number.NaN, 0.2, Number.NaN])).toEqual({ index: 1, plaqueBurden: 0.2 });
    expect(findMaxPlaqueBurden([])).toBeNull();
    expect(findMaxPlaqueBurden([Number.NaN])).toBeNull();
  });

  it('tells whether one drawn curve encloses another', () => {
    const lumen = ellipse(100, 60, 16);
    expect(enclosesContour(ellipse(150, 120, 16), lumen)).toBe(true);
    // Wider but flatter: the lumen pokes out above and below.
    expect(enclosesContour(ellipse(160, 50, 16), lumen)).toBe(false);
    expect(enclosesContour(lumen, ellipse(150, 120, 16))).toBe(false);
    expect(enclosesContour([], lumen)).toBe(false);
  });
});
