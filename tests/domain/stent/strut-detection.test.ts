import { describe, expect, it } from 'vitest';
import { createStrutDetector } from '../../../src/domain/stent/strut-detection.ts';
import { fitStentBorder, stentBorderAreaMm2 } from '../../../src/domain/stent/stent-border.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { catheterCentrePx } from '../../../src/domain/synthetic/contours.ts';
import { angleDifferenceRad } from '../../../src/domain/synthetic/cross-section.ts';
import { stentCase } from '../../../src/domain/synthetic/stent-cases.ts';
import { truthStentFrame, truthStentFrames } from '../../../src/domain/synthetic/stent-truth.ts';

// Tuning seeds of both looks: 1104 is 60 MHz, 1102 20 MHz.
describe.each([1104, 1102])('struts of rendered frames (seed %i)', (seed) => {
  const model = stentCase(seed).model;
  const centre = catheterCentrePx(model);
  const detector = createStrutDetector({ frameWidth: model.frameSizePx, frameHeight: model.frameSizePx, centreX: centre.x, centreY: centre.y, pixelSpacingMm: model.pixelSpacingMm });
  const renderer = createBmodeRenderer(model);
  const span = truthStentFrames(model)!;

  it('finds most struts where the generator put them, and the stent area through them', () => {
    // The frames within ±0.2 mm (12 frames at 60 frames/mm), as the border of the middle one is fitted.
    const frames = [-12, -6, 0, 6, 12].map((d) => span.first + 120 + d);
    let found = 0;
    let total = 0;
    const all = [];
    for (const frame of frames) {
      const truth = truthStentFrame(model, frame)!;
      const { struts } = detector.detect(renderer.renderFrame(frame));
      all.push(...struts);
      for (const t of truth.struts) {
        total++;
        const hit = struts.find((s) => Math.abs(angleDifferenceRad(s.angleRad, t.angleRad)) < (3 * Math.PI) / 180);
        if (hit && Math.abs(hit.radiusMm - t.radiusMm) < 0.1) found++;
      }
    }
    expect(found / total).toBeGreaterThan(0.6);
    const border = fitStentBorder(all);
    const truthArea = truthStentFrame(model, frames[2]!)!.areaMm2;
    expect(Math.abs(stentBorderAreaMm2(border!) / truthArea - 1)).toBeLessThan(0.05);
  });

  it('finds no stent in native vessel', () => {
    const native = [span.first - 200, span.last + 200];
    const counts = native.map((frame) => detector.detect(renderer.renderFrame(frame)).struts.length);
    expect(Math.max(...counts)).toBeLessThanOrEqual(1);
  });
});
