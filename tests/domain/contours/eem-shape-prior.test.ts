import { describe, expect, it } from 'vitest';
import { diceCoefficient } from '../../../src/domain/contours/agreement.ts';
import type { BorderDetection } from '../../../src/domain/contours/border-detection.ts';
import { createBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { arcRobustEemFit } from '../../../src/domain/contours/arc-robust-ellipse.ts';
import { bridgeBlindEem, bridgeEemAcrossArcs } from '../../../src/domain/contours/eem-shape-prior.ts';
import { evaluationCase, TUNING_SEEDS } from '../../../src/domain/synthetic/evaluation-cases.ts';

/** Frame 0 of a tuning case, detected with frame 1 as its temporal neighbour (as bench:contours does). */
function detectFirst(type: 'low-signal-arc' | 'coronary-20mhz', seed: number): { detection: BorderDetection; truthMm: number[]; lumenMm: number[]; mm: number } {
  const evaluation = evaluationCase(type, seed);
  const centre = evaluation.frames[0]!.catheterCentre;
  const detector = createBorderDetector({ frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
  const detection = detector.detect(evaluation.render(0), null, evaluation.render(1));
  const mm = evaluation.pixelSpacingMm;
  // The truth has 180 points at the rays' even angles: ray a is truth point a / 2.
  const radiusMm = (points: readonly { x: number; y: number }[]): number[] =>
    Array.from({ length: 360 }, (_, a) => Math.hypot(points[Math.floor(a / 2)]!.x - centre.x, points[Math.floor(a / 2)]!.y - centre.y) * mm);
  return { detection, truthMm: radiusMm(evaluation.frames[0]!.truth.vessel), lumenMm: radiusMm(evaluation.frames[0]!.truth.lumen), mm };
}

describe('the vessel border across a wide low-signal arc (issue 23)', () => {
  it("continues the EEM's course across a branch's ostium or a calcium shadow (up to a third of the circle), not out along the branch nor in to the lumen", () => {
    // Tuning seeds 1103 (a branch's ostium over ~120°: the border used to run 1.4 mm out round it)
    // and 1101 (a calcium shadow).
    for (const seed of [TUNING_SEEDS[2]!, TUNING_SEEDS[0]!]) {
      const { detection, truthMm, lumenMm, mm } = detectFirst('low-signal-arc', seed);
      let worst = 0;
      detection.vessel.radiiPx.forEach((r, a) => {
        worst = Math.max(worst, Math.abs(r * mm - truthMm[a]!));
        // Never pulled in to the lumen: outside the true lumen by at least half the true wall.
        expect(r * mm).toBeGreaterThan(lumenMm[a]! + 0.5 * (truthMm[a]! - lumenMm[a]!));
      });
      expect(worst).toBeLessThan(0.3);
    }
  });

  it('leaves the vessel border of a plain 20 MHz frame where the image shows it', () => {
    const { detection, truthMm, mm } = detectFirst('coronary-20mhz', TUNING_SEEDS[0]!);
    const errors = Array.from(detection.vessel.radiiPx, (r, a) => Math.abs(r * mm - truthMm[a]!));
    expect(errors.reduce((s, e) => s + e, 0) / errors.length).toBeLessThan(0.06);
    expect(Math.max(...errors)).toBeLessThan(0.2);
  });

  it('keeps the vessel outside the lumen on every ray', () => {
    for (const seed of TUNING_SEEDS.slice(0, 4)) {
      const { detection } = detectFirst('low-signal-arc', seed);
      detection.lumen.radiiPx.forEach((r, a) => expect(detection.vessel.radiiPx[a]!).toBeGreaterThan(r));
    }
  });
});

describe('the shape prior on frames where most rays show no wall', () => {
  it("does not take a frame full of struts' shadows for a branch: both borders stay on the vessel through the run", () => {
    // Tuning seed 1103 of mixed-20mhz: stent struts and a dark sector; the wall test once left too
    // few rays, a third of the circle was taken for an ostium and frame 7 went to the field's edge.
    const evaluation = evaluationCase('mixed-20mhz', TUNING_SEEDS[2]!);
    const centre = evaluation.frames[0]!.catheterCentre;
    const detector = createBorderDetector({ frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
    let previous: BorderDetection | null = null;
    let previousFrame: Uint8Array | null = null;
    for (let k = 0; k < 9; k++) {
      const frame = evaluation.render(k);
      previous = detector.detect(frame, previous, k === 0 ? evaluation.render(1) : previousFrame);
      previousFrame = frame;
      expect(diceCoefficient(previous.vessel.polygon, evaluation.frames[k]!.truth.vessel, evaluation.frameWidth)).toBeGreaterThan(0.9);
    }
    // Ten frames rendered and detected: about 5 s when the machine's two cores are shared, over the 5 s default.
  }, 30_000);
});

describe('the robust ellipse and the bridge', () => {
  const n = 360;
  const ellipse = (a: number): number => 100 + 12 * Math.cos((2 * Math.PI * a) / n) + 6 * Math.cos((4 * Math.PI * a) / n + 0.4);

  it('fits the ellipse of the wall through an outward bulge over a third of the circle', () => {
    // A branch: rays 60..180 run 40 samples out; the rest follow the ellipse.
    const radii = Float64Array.from({ length: n }, (_, a) => ellipse(a) + (a >= 60 && a < 180 ? 40 * Math.sin((Math.PI * (a - 60)) / 120) : 0));
    const fit = new Float64Array(n);
    expect(arcRobustEemFit(radii, new Uint8Array(n), 6, 5, fit)).toBe(true);
    // Within a few samples of the wall's ellipse everywhere (the bulge's shoulders pull a little), not the bulge's 40.
    for (let a = 0; a < n; a++) expect(Math.abs(fit[a]! - ellipse(a))).toBeLessThan(6);
    expect(Math.abs(fit[120]! - ellipse(120))).toBeLessThan(6);
  });

  it('bridges a blind arc along the ellipse, meeting its seeing ends, never inside lumen + wall', () => {
    const radii = Float32Array.from({ length: n }, (_, a) => ellipse(a) + 1);
    const blind = new Uint8Array(n);
    // The search hugged the lumen over rays 200..299.
    for (let a = 200; a < 300; a++) {
      blind[a] = 1;
      radii[a] = 70;
    }
    const lumen = Float32Array.from({ length: n }, (_, a) => (a >= 240 && a < 250 ? 100 : 68));
    const fit = Float64Array.from({ length: n }, (_, a) => ellipse(a));
    bridgeBlindEem(radii, blind, fit, lumen, 8);
    for (let a = 200; a < 300; a++) {
      expect(radii[a]!).toBeGreaterThanOrEqual(lumen[a]! + 8);
      if (lumen[a]! + 8 < ellipse(a)) expect(Math.abs(radii[a]! - ellipse(a) - 1)).toBeLessThan(1e-3);
    }
  });

  it('takes the EEM across a shadow without an echo in front off the lumen, onto the ellipse of the rays that see the wall', () => {
    // A polar image (0.015 mm samples): blood to the lumen at sample 100, plaque to the EEM at an
    // eccentric ellipse, bright adventitia beyond; over rays 200..299 nothing past sample 110 (an
    // attenuating shadow), where the search took the only edge left, just outside the lumen.
    const sampleCount = 300;
    const smooth = new Float32Array(n * sampleCount);
    const lit = new Uint8Array(n * sampleCount).fill(1);
    const wall = (a: number): number => 140 + 8 * Math.cos((2 * Math.PI * a) / n);
    const shadowed = (a: number): boolean => a >= 200 && a < 300;
    for (let a = 0; a < n; a++) {
      for (let k = 0; k < sampleCount; k++) {
        const at = a * sampleCount + k;
        smooth[at] = k < 100 ? 10 : k < wall(a) ? 60 : 150;
        if (shadowed(a) && k >= 110) {
          smooth[at] = 4;
          lit[at] = 0;
        }
      }
    }
    const radii = Float32Array.from({ length: n }, (_, a) => (shadowed(a) ? 112 : wall(a)));
    const lumen = new Float32Array(n).fill(100);
    const blind = new Uint8Array(n);
    const evidence = { smooth, lit, sampleCount, insideCount: new Int32Array(n).fill(sampleCount), tissueLevel: 35 };
    expect(bridgeEemAcrossArcs(radii, blind, lumen, 0.015, 0.015, { scale: 1, offset: 0 }, evidence, 10)).toBe(true);
    for (let a = 0; a < n; a++) expect(Math.abs(radii[a]! - wall(a))).toBeLessThan(3);
    expect(blind[250]).toBe(1);
    expect(blind[100]).toBe(0);
  });

  it("takes a branch's ostium out of the ellipse where the plaque is darker than the tissue level (20 MHz coronary look)", () => {
    // Plaque speckled but mostly below the tissue level (a fifth of its samples above it, as the real
    // set's plaque, median 52, against an adventitia of 125), so most rays fail the usual wall test;
    // over a third of the circle a branch's blood, with no tissue at all, runs out to its far wall,
    // where the search took the EEM.
    const sampleCount = 400;
    const smooth = new Float32Array(n * sampleCount);
    const lit = new Uint8Array(n * sampleCount).fill(1);
    const wall = (a: number): number => 140 + 8 * Math.cos((2 * Math.PI * a) / n);
    // The far wall rises and falls over the ostium (rays 295..65), up to 75 samples (1.1 mm) out.
    const offset = (a: number): number => ((a + 180) % n) - 180;
    const inBranch = (a: number): boolean => Math.abs(offset(a)) < 65;
    const bulge = (a: number): number => (inBranch(a) ? 75 * Math.cos((Math.PI * offset(a)) / 130) : 0);
    for (let a = 0; a < n; a++) {
      for (let k = 0; k < sampleCount; k++) {
        const farWall = wall(a) + bulge(a);
        const plaque = inBranch(a) ? 10 : k % 5 === 0 ? 60 : 25;
        smooth[a * sampleCount + k] = k < 100 ? 10 : k < farWall ? plaque : 150;
      }
    }
    const radii = Float32Array.from({ length: n }, (_, a) => wall(a) + bulge(a));
    const lumen = new Float32Array(n).fill(100);
    const blind = new Uint8Array(n);
    const evidence = { smooth, lit, sampleCount, insideCount: new Int32Array(n).fill(sampleCount), tissueLevel: 35 };
    expect(bridgeEemAcrossArcs(radii, blind, lumen, 0.015, 0.015, { scale: 1, offset: 0 }, evidence, 10)).toBe(true);
    // The EEM continues the wall's ellipse across the ostium (within 0.15 mm: its shoulders, less than the
    // 0.2 mm stray, stay), not out along the far wall (1.1 mm).
    for (let a = 0; a < n; a++) expect(Math.abs(radii[a]! - wall(a))).toBeLessThan(10);
    expect(blind[0]).toBe(1);
    expect(blind[180]).toBe(0);
  });
});
