/**
 * What the detector's speed work (issue 23) must keep: the polar grid's spacing is the same in mm
 * on every frame (a 0.01 mm/px demo frame is no longer sampled per pixel), the blind rays and the
 * per-ray sums both searches read, the angular low-pass from its cached tables, and a previous frame
 * recognised as the last one detected (whose polar image is kept) however its bytes are held.
 */
import { describe, expect, it } from 'vitest';
import { BLIND_MARGIN_RAYS, rayEvidence } from '../../../src/domain/contours/blind-rays.ts';
import { createBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { lowPass } from '../../../src/domain/contours/radial-profile.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';

describe('the polar grid', () => {
  it('samples a 0.01 mm/px frame 0.015 mm apart along the rays, as a 0.02 mm/px one', () => {
    for (const pixelSpacingMm of [0.01, 0.02]) {
      const logOdds = createBorderDetector({ frameWidth: 256, frameHeight: 256, pixelSpacingMm }).bloodLogOdds();
      expect((logOdds.radiusPx(1) - logOdds.radiusPx(0)) * pixelSpacingMm).toBeCloseTo(0.015, 9);
      expect(logOdds.values).toHaveLength(logOdds.angleCount * logOdds.sampleCount);
    }
  });
});

describe('rayEvidence', () => {
  const angleCount = 36;
  const sampleCount = 40;
  const grid = { angleCount, sampleCount, insideCount: new Int32Array(angleCount).fill(sampleCount), blindStart: 10, minSamples: 5 };

  it('marks rays without speckle past the blind band as blind, with their neighbours, and sums every ray', () => {
    const smooth = new Float32Array(angleCount * sampleCount).fill(2);
    const variance = new Float32Array(angleCount * sampleCount).fill(100);
    // Ray 20 shows nothing past sample 10 (the guidewire's shadow); ray 5 has a dark ring before the band only.
    variance.fill(0, 20 * sampleCount + 10, 21 * sampleCount);
    variance.fill(0, 5 * sampleCount, 5 * sampleCount + 10);
    const lit = new Uint8Array(angleCount * sampleCount);
    const prefix = new Float64Array(angleCount * (sampleCount + 1));
    const blind = rayEvidence(smooth, variance, 10, grid, lit, prefix);
    const blindRays = [...blind.keys()].filter((a) => blind[a] === 1);
    expect(blindRays).toEqual(Array.from({ length: 2 * BLIND_MARGIN_RAYS + 1 }, (_, i) => 20 - BLIND_MARGIN_RAYS + i));
    expect(lit[5 * sampleCount]).toBe(0);
    expect(lit[5 * sampleCount + 10]).toBe(1);
    expect(prefix[3 * (sampleCount + 1) + sampleCount]).toBe(2 * sampleCount);
  });

  it('takes a ray whose field ends before the blind band for blind', () => {
    const insideCount = new Int32Array(angleCount).fill(sampleCount);
    insideCount[0] = 12;
    const blind = rayEvidence(new Float32Array(angleCount * sampleCount), new Float32Array(angleCount * sampleCount).fill(100), 10, { ...grid, insideCount }, new Uint8Array(angleCount * sampleCount), new Float64Array(angleCount * (sampleCount + 1)));
    expect(blind[0]).toBe(1);
    expect(blind[angleCount - 1]).toBe(1);
    expect(blind[angleCount / 2]).toBe(0);
  });
});

describe('lowPass', () => {
  it('keeps the harmonics up to the limit and removes those above, for any ray count', () => {
    for (const n of [360, 90]) {
      const values = Float32Array.from({ length: n }, (_, a) => 10 + 2 * Math.cos((2 * Math.PI * 3 * a) / n) + Math.sin((2 * Math.PI * 20 * a) / n));
      lowPass(values, 6);
      values.forEach((v, a) => expect(v).toBeCloseTo(10 + 2 * Math.cos((2 * Math.PI * 3 * a) / n), 4));
    }
  });
});

describe('the previous frame', () => {
  it('gives the same borders whether it is the array last detected or a copy of its bytes at an odd offset', () => {
    const model = createPullbackModel({ seed: 11, frameCount: 60 });
    const renderer = createBmodeRenderer(model);
    const size = model.frameSizePx;
    const [first, second] = [renderer.renderFrame(30), renderer.renderFrame(31)];
    const detect = (previousFrame: Uint8Array) => {
      const detector = createBorderDetector({ frameWidth: size, frameHeight: size, pixelSpacingMm: model.pixelSpacingMm });
      const previous = detector.detect(first, null, second);
      return detector.detect(second, previous, previousFrame);
    };
    const held = new Uint8Array(first.length + 1);
    held.set(first, 1);
    const same = detect(first);
    const copied = detect(held.subarray(1));
    expect(Array.from(copied.lumen.radiiPx)).toEqual(Array.from(same.lumen.radiiPx));
    expect(Array.from(copied.vessel.radiiPx)).toEqual(Array.from(same.vessel.radiiPx));
    expect(same.lumen.polygon).toHaveLength(360);
  });
});
