import { describe, expect, it } from 'vitest';
import { eemShapeResidual } from '../../../src/domain/contours/carried-eem.ts';
import { carryOf, detectBorderSequence } from '../../../src/domain/contours/detect-sequence.ts';
import { evaluationFrames } from './evaluation-frames.ts';

// A NURD case (a TUNING seed). Frame 1014 is where a stitched run starts: it is detected alone, and
// its EEM is wrong (vessel Dice 0.76). The next frames are its true neighbours and, alone, read the
// vessel at 0.99; continuity held them on 1014's EEM (0.76–0.81) until the EEM's shape gave the
// carried EEM away (carried-eem.ts).
const { geometry, detector, frameOf, framesOf, dice } = evaluationFrames('nurd', 1103);

describe('an EEM its previous frame carried (issue 23: continuity never carries a failure)', () => {
  it('gives way to the evidence once the neighbours show the vessel again', () => {
    const start = frameOf(1014);
    const carry = carryOf(detector().detect(start, null, null), start);
    const indices = [1015, 1016, 1017];
    const { detections } = detectBorderSequence(detector(), framesOf(indices), geometry, carry);
    indices.forEach((index, k) => {
      const alone = dice(detectBorderSequence(detector(), frameOf(index), geometry).detections[0]!, index);
      const inSequence = dice(detections[k]!, index);
      expect(inSequence.vessel).toBeGreaterThanOrEqual(alone.vessel - 0.02);
      expect(inSequence.lumen).toBeGreaterThanOrEqual(alone.lumen - 0.02);
    });
  }, 60_000);

  it('scores an ellipse as smooth and an EEM that bends from one course to another as not', () => {
    const n = 360;
    const sampleMm = 0.015;
    const ellipse = Array.from({ length: n }, (_, a) => 150 + 20 * Math.cos((4 * a * Math.PI) / n) + 5 * Math.sin((2 * a * Math.PI) / n));
    // Held 0.45 mm (30 samples) outside its course over a quarter of the circle, ramping in and out.
    const bent = ellipse.map((r, a) => r + (a < 90 ? 30 * Math.sin((a * Math.PI) / 90) : 0));
    const none = new Uint8Array(n);
    const fit = new Float64Array(n);
    expect(eemShapeResidual(ellipse, none, 5, sampleMm, fit)).toBeLessThan(0.005);
    expect(eemShapeResidual(bent, none, 5, sampleMm, fit)).toBeGreaterThan(0.04);
    // Blind rays do not count: the same bend hidden behind a shadow scores as smooth.
    const shadow = new Uint8Array(n).fill(1, 0, 100);
    expect(eemShapeResidual(bent, shadow, 5, sampleMm, fit)).toBeLessThan(0.005);
  });
});
