import { describe, expect, it } from 'vitest';
import { lumenAreaProfileMm2, minimalLumenFrame } from '../../../src/domain/synthetic/contours.ts';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { createPullbackModel, framePositionMm, vesselAreaTargetMm2 } from '../../../src/domain/synthetic/pullback-model.ts';

const SEEDS = [1, 2, 3, 42, 20260];

describe('createPullbackModel', () => {
  it('is the same for the same options and differs between seeds', () => {
    expect(createPullbackModel({ seed: 5, frameCount: 300 })).toEqual(createPullbackModel({ seed: 5, frameCount: 300 }));
    expect(createPullbackModel({ seed: 6, frameCount: 300 }).anatomy).not.toEqual(createPullbackModel({ seed: 5, frameCount: 300 }).anatomy);
  });

  it('describes the long demo record as a 60 mm pullback at 30 frames/s and 0.5 mm/s', () => {
    const model = createPullbackModel({ seed: 1, frameCount: 3600 });
    expect(model).toMatchObject({ frameSizePx: 512, pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5, lengthMm: 60 });
    expect(framePositionMm(model, 30)).toBeCloseTo(0.5, 12);
  });

  it('refuses a field of view too small for the vessel, and nonsense counts', () => {
    expect(() => createPullbackModel({ seed: 1, frameCount: 10, frameSizePx: 256 })).toThrow(/needs/);
    expect(() => createPullbackModel({ seed: 1, frameCount: 0 })).toThrow(RangeError);
  });
});

describe.each(SEEDS)('anatomy of seed %i', (seed) => {
  const model = createPullbackModel({ seed, frameCount: 3600 });
  const areas = lumenAreaProfileMm2(model);
  const mla = minimalLumenFrame(model);

  it('has a reference lumen of 7-9 mm² away from the lesion and an MLA of 2-3 mm²', () => {
    for (const frame of [0, 300, 3300, 3599]) {
      expect(areas[frame]).toBeGreaterThan(7);
      expect(areas[frame]).toBeLessThan(9);
    }
    expect(areas[mla]).toBeGreaterThan(2);
    expect(areas[mla]).toBeLessThan(3);
  });

  it('has one clear stenosis: the MLA lies at the lesion and is well below every frame far from it', () => {
    const lesionFrame = (model.anatomy.stenosisCentreMm / model.pullbackSpeedMmPerS) * model.frameRateHz;
    expect(Math.abs(mla - lesionFrame)).toBeLessThan(60);
    // Further than 3 lesion widths from the MLA, no frame comes within a factor of two of it.
    const widthFrames = ((3 * Math.max(model.anatomy.stenosisSigmaDistalMm, model.anatomy.stenosisSigmaProximalMm)) / model.pullbackSpeedMmPerS) * model.frameRateHz;
    for (let frame = 0; frame < areas.length; frame++) {
      if (Math.abs(frame - mla) > widthFrames) expect(areas[frame]).toBeGreaterThan(2 * areas[mla]!);
    }
  });

  it('keeps the EEM at 11-15 mm² and within a 4.6 mm diameter, with a wall around the lumen', () => {
    for (let frame = 0; frame < model.frameCount; frame += 97) {
      const zMm = framePositionMm(model, frame);
      expect(vesselAreaTargetMm2(model, zMm)).toBeGreaterThan(11);
      expect(vesselAreaTargetMm2(model, zMm)).toBeLessThan(15);
      const section = crossSectionAt(model, frame);
      for (let k = 0; k < 72; k++) {
        const angle = (2 * Math.PI * k) / 72;
        // In view with room for the adventitia (the field of view's radius is 2.56 mm) ...
        expect(section.vesselRadiusMm(angle)).toBeLessThan(2.35);
        // ... and at most 4.6 mm across.
        expect(section.vesselRadiusMm(angle) + section.vesselRadiusMm(angle + Math.PI)).toBeLessThan(4.6);
        expect(section.vesselRadiusMm(angle) - section.lumenRadiusMm(angle)).toBeGreaterThan(0.15);
        // The catheter (0.5 mm radius) always fits inside the lumen.
        expect(section.lumenRadiusMm(angle)).toBeGreaterThan(0.55);
      }
    }
  });
});

describe('a short record (300 frames, 5 mm)', () => {
  it('still holds its whole stenosis, with the MLA inside the record and not at its ends', () => {
    const model = createPullbackModel({ seed: 9, frameCount: 300 });
    const areas = lumenAreaProfileMm2(model);
    const mla = minimalLumenFrame(model);
    expect(mla).toBeGreaterThan(60);
    expect(mla).toBeLessThan(240);
    expect(areas[mla]).toBeLessThan(3);
    expect(Math.min(areas[0]!, areas[299]!)).toBeGreaterThan(5);
  });
});
