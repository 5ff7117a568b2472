import { describe, expect, it } from 'vitest';
import { lumenAreaProfileMm2, minimalLumenFrame, polygonAreaMm2, truthContours } from '../../../src/domain/synthetic/contours.ts';
import { imagePoint } from '../../../src/domain/image-point.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

const model = createPullbackModel({ seed: 11, frameCount: 900 });

describe('polygonAreaMm2', () => {
  it('measures a square in mm² whatever its orientation', () => {
    const square = [imagePoint(0, 0), imagePoint(100, 0), imagePoint(100, 100), imagePoint(0, 100)];
    expect(polygonAreaMm2(square, 0.01)).toBeCloseTo(1, 12);
    expect(polygonAreaMm2([...square].reverse(), 0.01)).toBeCloseTo(1, 12);
    expect(polygonAreaMm2(square, 0.02)).toBeCloseTo(4, 12);
  });
});

describe('truthContours', () => {
  it('gives 180-point closed contours inside the image and inside the field of view', () => {
    for (const frame of [0, 450, minimalLumenFrame(model), 899]) {
      const { lumen, vessel } = truthContours(model, frame);
      expect(lumen).toHaveLength(180);
      expect(vessel).toHaveLength(180);
      for (const point of [...lumen, ...vessel]) {
        expect(Math.hypot(point.x - 256, point.y - 256)).toBeLessThan(256);
      }
    }
  });

  it('puts the lumen inside the vessel, point by point, with the catheter inside the lumen', () => {
    for (const frame of [10, 300, minimalLumenFrame(model)]) {
      const { lumen, vessel } = truthContours(model, frame);
      lumen.forEach((point, k) => {
        const lumenRadiusPx = Math.hypot(point.x - 256, point.y - 256);
        const vesselRadiusPx = Math.hypot(vessel[k]!.x - 256, vessel[k]!.y - 256);
        expect(lumenRadiusPx).toBeGreaterThan(50);
        expect(vesselRadiusPx - lumenRadiusPx).toBeGreaterThan(15);
      });
    }
  });

  it('has the areas of the lumen profile, so detection can be scored against either', () => {
    const areas = lumenAreaProfileMm2(model);
    for (const frame of [0, 123, minimalLumenFrame(model)]) {
      expect(polygonAreaMm2(truthContours(model, frame).lumen, model.pixelSpacingMm)).toBeCloseTo(areas[frame]!, 9);
    }
  });

  it('is smallest at the minimal lumen frame', () => {
    const areas = lumenAreaProfileMm2(model);
    const mla = minimalLumenFrame(model);
    expect(Math.min(...areas)).toBe(areas[mla]);
    expect(polygonAreaMm2(truthContours(model, mla).lumen, 0.01)).toBeLessThan(0.5 * polygonAreaMm2(truthContours(model, 0).lumen, 0.01));
  });
});
