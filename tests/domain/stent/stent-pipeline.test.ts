/**
 * The whole stent analysis on a rendered stented pullback of the generator (a tuning seed), read
 * every 0.2 mm: the figures the bench scores on the evaluation seeds, held here on one pullback.
 */
import { describe, expect, it } from 'vitest';
import { analyseStent } from '../../../src/domain/stent/stent-analysis.ts';
import { createStrutDetector, type StentFrameReading } from '../../../src/domain/stent/strut-detection.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { catheterCentrePx } from '../../../src/domain/synthetic/contours.ts';
import { stentCase } from '../../../src/domain/synthetic/stent-cases.ts';
import { truthStentFrame, truthStentFrames } from '../../../src/domain/synthetic/stent-truth.ts';

describe('stent analysis of a rendered pullback', () => {
  it('finds the stent’s edges and its MSA within 5 % of the truth', () => {
    const model = stentCase(1104).model;
    const stride = 12;
    const framesPerMm = model.frameRateHz / model.pullbackSpeedMmPerS / stride;
    const span = truthStentFrames(model)!;
    const centre = catheterCentrePx(model);
    const detector = createStrutDetector({ frameWidth: model.frameSizePx, frameHeight: model.frameSizePx, centreX: centre.x, centreY: centre.y, pixelSpacingMm: model.pixelSpacingMm });
    const renderer = createBmodeRenderer(model);
    // From 2 mm before the stent to 2 mm after it.
    const first = span.first - 10 * stride;
    const frames: number[] = [];
    for (let f = first; f <= span.last + 10 * stride; f += stride) frames.push(f);
    const readings: StentFrameReading[] = frames.map((f) => detector.detect(renderer.renderFrame(f)));
    const analysis = analyseStent({ readings, framesPerMm });

    const truthAreas = frames.map((f) => truthStentFrame(model, f)?.areaMm2 ?? Infinity);
    const truthMsa = Math.min(...truthAreas);
    expect(analysis.msa).not.toBeNull();
    expect(Math.abs(analysis.msa!.areaMm2 / truthMsa - 1)).toBeLessThan(0.05);
    const distal = frames[analysis.segment!.distalFrame]!;
    const proximal = frames[analysis.segment!.proximalFrame]!;
    expect(Math.abs(distal - span.first)).toBeLessThanOrEqual(stride);
    expect(Math.abs(proximal - span.last)).toBeLessThanOrEqual(stride);
    // The generator's malapposed region is found, and nothing else.
    expect(analysis.malapposition.length).toBe(model.hardCases!.deployedStent!.malapposition.length);
  }, 60_000);
});
