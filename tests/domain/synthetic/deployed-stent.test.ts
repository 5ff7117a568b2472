import { describe, expect, it } from 'vitest';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { MALAPPOSITION_THRESHOLD_MM, stentAreaAtMm2 } from '../../../src/domain/synthetic/deployed-stent.ts';
import { MIN_WALL_THICKNESS_MM, createPullbackModel, framePositionMm } from '../../../src/domain/synthetic/pullback-model.ts';
import { stentCase } from '../../../src/domain/synthetic/stent-cases.ts';
import { truthMalapposedLines, truthStentFrame, truthStentFrames } from '../../../src/domain/synthetic/stent-truth.ts';

const model = stentCase(1101).model;
const stent = model.hardCases!.deployedStent!;
const framesPerMm = model.frameRateHz / model.pullbackSpeedMmPerS;
const frameAt = (zMm: number): number => Math.round(zMm * framesPerMm);

describe('deployed stent in the generator', () => {
  it('is off unless asked for: other models keep their parameters and their sections', () => {
    const options = { seed: 77, frameCount: 600, frameSizePx: 384, pixelSpacingMm: 0.03, look: '60mhz' as const, hardCases: { stent: true } };
    const plain = createPullbackModel(options);
    const stented = createPullbackModel({ ...options, hardCases: { stent: true, deployedStent: true } });
    expect(plain.hardCases?.deployedStent).toBeUndefined();
    expect({ ...stented.hardCases, deployedStent: undefined }).toEqual({ ...plain.hardCases, deployedStent: undefined });
    expect(crossSectionAt(plain, 300).struts?.borderRadiusMm).toBeUndefined();
  });

  it('holds the lumen open on its border, smaller where it is under-expanded', () => {
    const under = stent.underExpansion;
    const atCore = truthStentFrame(model, frameAt(under.centreMm))!;
    expect(atCore.areaMm2 / stentAreaAtMm2(stent, under.centreMm)).toBeCloseTo(1, 1);
    expect(stentAreaAtMm2(stent, under.centreMm)).toBeCloseTo(stent.nominalAreaMm2 * (1 - under.areaLoss), 6);
    const section = crossSectionAt(model, frameAt(under.centreMm));
    // Apposed: the lumen is the stent border, the wall outside it at least the thinnest wall.
    for (const angle of [0, 1, 2, 3, 4, 5]) {
      if (truthMalapposedLines(atCore)[Math.round((angle * 180) / Math.PI) % 360]) continue;
      expect(section.lumenRadiusMm(angle)).toBeCloseTo(section.struts!.borderRadiusMm!(angle), 6);
      expect(section.vesselRadiusMm(angle) - section.lumenRadiusMm(angle)).toBeGreaterThanOrEqual(MIN_WALL_THICKNESS_MM - 1e-9);
    }
  });

  it('leaves the wall more than 0.4 mm off the struts at a malapposed region’s core, and nowhere outside the stent', () => {
    const region = stent.malapposition[0]!;
    const section = crossSectionAt(model, frameAt(region.centreMm));
    const gap = section.lumenRadiusMm(region.angleRad) - section.struts!.borderRadiusMm!(region.angleRad);
    expect(gap).toBeCloseTo(region.gapMm, 6);
    expect(gap).toBeGreaterThan(MALAPPOSITION_THRESHOLD_MM);
    const span = truthStentFrames(model)!;
    expect(framePositionMm(model, span.first)).toBeGreaterThanOrEqual(stent.startMm);
    expect(truthStentFrame(model, span.first - 1)).toBeNull();
    expect(truthStentFrame(model, span.last + 1)).toBeNull();
  });
});
