import { describe, expect, it } from 'vitest';
import type { Point } from '../../../src/domain/annotations/manifest.ts';
import { withCorrection, type SliceMeasurement } from '../../../src/domain/contours/corrected-analysis.ts';
import { formatFigure, frameFigures, NO_FIGURE, scaleBarFor } from '../../../src/domain/contours/frame-figures.ts';

const SPACING_MM = 0.01;

/** `count` points of an ellipse with semi-axes a, b (px), turned by `rotation`, round (256, 256). */
function ellipse(a: number, b: number, count = 360, rotation = 0): Point[] {
  return Array.from({ length: count }, (_, i) => {
    const t = (2 * Math.PI * i) / count;
    const x = a * Math.cos(t);
    const y = b * Math.sin(t);
    return { x: 256 + x * Math.cos(rotation) - y * Math.sin(rotation), y: 256 + x * Math.sin(rotation) + y * Math.cos(rotation) };
  });
}

/** A frame the detector could not read: no border, no figure. */
const unread: SliceMeasurement = {
  slice: 7,
  positionMm: 0.2,
  areaMm2: null,
  minDiameterMm: null,
  maxDiameterMm: null,
  eccentricity: null,
  source: null,
  controlPoints: [],
  vessel: null,
  plaqueAreaMm2: null,
  plaqueBurden: null,
  confidence: 0.05,
  bordersCross: false,
  noBorder: true,
};

/** The frame with the given lumen and vessel borders drawn by hand. */
const drawn = (lumen: Point[], vessel: Point[]) => withCorrection(withCorrection(unread, 'lumen', lumen, SPACING_MM), 'vessel', vessel, SPACING_MM);

describe('frameFigures', () => {
  it('gives a circular lumen of 1.5 mm radius in a 2.5 mm vessel its area, equal diameters of 3 mm and its plaque burden', () => {
    const f = frameFigures(drawn(ellipse(150, 150), ellipse(250, 250)));
    expect(f.lumenAreaMm2).toBeCloseTo(Math.PI * 1.5 ** 2, 2);
    expect(f.minLumenDiameterMm).toBeCloseTo(3, 2);
    expect(f.maxLumenDiameterMm).toBeCloseTo(3, 2);
    expect(f.vesselAreaMm2).toBeCloseTo(Math.PI * 2.5 ** 2, 2);
    // (EEM − lumen) / EEM = 1 − (1.5 / 2.5)² = 64 %.
    expect(f.plaqueBurdenPercent).toBeCloseTo(64, 1);
    expect(f.noBorder).toBe(false);
  });

  it('gives an elliptical lumen (semi-axes 2 mm and 1 mm, turned) its minor and major axes as minimal and maximal diameters', () => {
    const f = frameFigures(drawn(ellipse(200, 100, 360, 0.6), ellipse(300, 300)));
    expect(f.minLumenDiameterMm).toBeCloseTo(2, 2);
    expect(f.maxLumenDiameterMm).toBeCloseTo(4, 2);
    expect(f.lumenAreaMm2).toBeCloseTo(Math.PI * 2 * 1, 2);
  });

  it('has no figure at all on a frame without a border, and says so', () => {
    const f = frameFigures(unread);
    expect(f.noBorder).toBe(true);
    expect([f.lumenAreaMm2, f.minLumenDiameterMm, f.maxLumenDiameterMm, f.vesselAreaMm2, f.plaqueBurdenPercent]).toEqual([null, null, null, null, null]);
    expect(formatFigure(f.lumenAreaMm2, 2)).toBe(NO_FIGURE);
  });

  it('measures a lumen drawn by hand on an unread frame, and leaves the missing vessel and burden empty', () => {
    const f = frameFigures(withCorrection(unread, 'lumen', ellipse(150, 150), SPACING_MM));
    expect(f.noBorder).toBe(false);
    expect(f.lumenAreaMm2).toBeCloseTo(Math.PI * 1.5 ** 2, 2);
    expect(f.vesselAreaMm2).toBeNull();
    expect(f.plaqueBurdenPercent).toBeNull();
  });

  it('gives no plaque burden when a corrected vessel border crosses the lumen', () => {
    const f = frameFigures(drawn(ellipse(250, 100), ellipse(150, 150)));
    expect(f.bordersCross).toBe(true);
    expect(f.plaqueBurdenPercent).toBeNull();
  });
});

describe('scaleBarFor', () => {
  it('picks the longest 1-2-5 length that fits, and follows the zoom', () => {
    // 0.01 mm/px at zoom 1: 100 screen px per mm.
    expect(scaleBarFor(100, 120)).toEqual({ lengthMm: 1, lengthPx: 100 });
    expect(scaleBarFor(100, 250)).toEqual({ lengthMm: 2, lengthPx: 200 });
    // Zoomed out to a quarter, 25 px per mm: 2 mm is 50 px, 5 mm would be 125 px.
    expect(scaleBarFor(25, 120)).toEqual({ lengthMm: 2, lengthPx: 50 });
    expect(scaleBarFor(400, 120)).toEqual({ lengthMm: 0.2, lengthPx: 80 });
  });

  it('draws no bar when no round length fits, or the scale is unknown', () => {
    expect(scaleBarFor(2000, 120)).toBeNull();
    expect(scaleBarFor(0, 120)).toBeNull();
    expect(scaleBarFor(Number.NaN, 120)).toBeNull();
  });
});
