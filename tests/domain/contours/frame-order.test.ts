import { describe, expect, it } from 'vitest';
import type { SliceDetection } from '../../../src/domain/contours/api.ts';
import { diceCoefficient } from '../../../src/domain/contours/agreement.ts';
import { createBorderDetector, TRUSTED_CONFIDENCE } from '../../../src/domain/contours/border-detector.ts';
import { carryOf, detectBorderSequence } from '../../../src/domain/contours/detect-sequence.ts';
import { NEIGHBOUR_SCORE } from '../../../src/domain/contours/frame-neighbours.ts';
import { measuredOutline } from '../../../src/domain/contours/measurements.ts';
import { controlPointsOf, polygonOf } from '../../../src/domain/contours/radial-profile.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { truthContours, type TruthContours } from '../../../src/domain/synthetic/contours.ts';
import { createPullbackModel } from '../../../src/domain/synthetic/pullback-model.ts';
import { evaluationCase, type EvaluationCaseType } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { frameSequence } from '../../../src/domain/synthetic/sequence-kinds.ts';
import { seededRandom } from '../../../src/domain/random.ts';

// Two 20 MHz pullbacks of the same frame geometry (as two runs of one export would be).
const options = { frameCount: 900, frameSizePx: 384, pixelSpacingMm: 0.025, look: '20mhz' as const };
const model = createPullbackModel({ seed: 23, ...options });
const otherModel = createPullbackModel({ seed: 24, ...options });
const renderer = createBmodeRenderer(model);
const otherRenderer = createBmodeRenderer(otherModel);
const size = model.frameSizePx;
const geometry = { frameWidth: size, frameHeight: size, pixelSpacingMm: model.pixelSpacingMm };
const frame = (index: number): Uint8Array => renderer.renderFrame(index).slice();
const detector = () => createBorderDetector(geometry);

function concat(frames: readonly Uint8Array[]): Uint8Array {
  const bytes = new Uint8Array(frames.length * size * size);
  frames.forEach((f, k) => bytes.set(f, k * size * size));
  return bytes;
}

function dice(detection: SliceDetection, index: number): { lumen: number; vessel: number } {
  const truth = truthContours(model, index);
  return {
    lumen: diceCoefficient(measuredOutline(detection.controlPoints), truth.lumen, size),
    vessel: diceCoefficient(measuredOutline(detection.vessel!.controlPoints), truth.vessel, size),
  };
}

function alone(index: number): SliceDetection {
  return detectBorderSequence(detector(), frame(index), geometry).detections[0]!;
}

/** Not an IVUS frame: a smooth pattern with a checkerboard over it. */
function picture(): Uint8Array {
  const out = new Uint8Array(size * size);
  for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) out[y * size + x] = Math.round(128 + 60 * Math.sin(x / 23) * Math.cos(y / 17) + (((x >> 5) + (y >> 5)) % 2) * 50);
  return out;
}

function noise(): Uint8Array {
  const random = seededRandom(7);
  return Uint8Array.from({ length: size * size }, () => Math.floor(random() * 256));
}

describe('telling temporal neighbours apart', () => {
  const first = 300;
  const scoreOf = (reference: Uint8Array): number => {
    const d = detector();
    d.detect(frame(first), null, reference);
    return d.neighbourScore()!;
  };

  it('reads consecutive frames, and frames one dropped frame apart, as neighbours', () => {
    expect(scoreOf(frame(first + 1))).toBeGreaterThanOrEqual(NEIGHBOUR_SCORE);
    expect(scoreOf(frame(first - 1))).toBeGreaterThanOrEqual(NEIGHBOUR_SCORE);
    expect(scoreOf(frame(first + 2))).toBeGreaterThanOrEqual(NEIGHBOUR_SCORE);
  }, 30_000);

  it('reads frames five apart, a heartbeat away, far along the run, and of another pullback as no neighbours', () => {
    // Five frames apart the tissue has half decorrelated: read with the temporal cue, it would pass for blood.
    expect(scoreOf(frame(first + 5))).toBeLessThan(NEIGHBOUR_SCORE);
    expect(scoreOf(frame(first + 30))).toBeLessThan(NEIGHBOUR_SCORE);
    expect(scoreOf(frame(first - 12))).toBeLessThan(NEIGHBOUR_SCORE);
    expect(scoreOf(frame(first + 400))).toBeLessThan(NEIGHBOUR_SCORE);
    expect(scoreOf(otherRenderer.renderFrame(first).slice())).toBeLessThan(NEIGHBOUR_SCORE);
  }, 30_000);

  it('has no score without a reference frame', () => {
    const d = detector();
    d.detect(frame(first), null, null);
    expect(d.neighbourScore()).toBeNull();
  });
});

describe('border detection in any frame order', () => {
  it('gives each frame of a gated sequence (one per heartbeat) and of a shuffled one its result alone, within 0.02 Dice', () => {
    const gated = [120, 150, 180, 210];
    const shuffled = [260, 251, 270, 242];
    for (const indices of [gated, shuffled]) {
      const { detections } = detectBorderSequence(detector(), concat(indices.map(frame)), geometry);
      indices.forEach((index, k) => {
        const inSequence = dice(detections[k]!, index);
        const single = dice(alone(index), index);
        expect(Math.abs(inSequence.lumen - single.lumen)).toBeLessThanOrEqual(0.02);
        expect(Math.abs(inSequence.vessel - single.vessel)).toBeLessThanOrEqual(0.02);
        // Both borders where they are, not at the edge of the field.
        expect(inSequence.lumen).toBeGreaterThan(0.85);
        expect(inSequence.vessel).toBeGreaterThan(0.85);
      });
    }
  }, 60_000);

  it('recovers at once after two runs stitched together, and after an unreadable frame in the middle, which gets a confidence below 0.2', () => {
    const stitched = detectBorderSequence(detector(), concat([frame(400), frame(401), otherRenderer.renderFrame(100).slice(), frame(402)]), geometry).detections;
    expect(dice(stitched[3]!, 402).lumen).toBeGreaterThan(0.9);

    for (const garbage of [new Uint8Array(size * size), noise(), picture()]) {
      const { detections } = detectBorderSequence(detector(), concat([frame(500), frame(501), garbage, frame(502), frame(503)]), geometry);
      expect(detections[2]!.confidence).toBeLessThan(0.2);
      const after = dice(detections[3]!, 502);
      const single = dice(alone(502), 502);
      expect(after.lumen).toBeGreaterThanOrEqual(single.lumen - 0.02);
      expect(after.vessel).toBeGreaterThanOrEqual(single.vessel - 0.02);
      expect(after.lumen).toBeGreaterThan(0.9);
      expect(dice(detections[4]!, 503).lumen).toBeGreaterThan(0.9);
    }
  }, 60_000);

  it('does not let a failed detection of the frame before guide the next, even when that frame is its neighbour', () => {
    const previousFrame = frame(600);
    const current = frame(601);
    // What a failure looks like: both borders at the edge of the field, confidence 0.
    const edge = (radius: number) => {
      const radiiPx = new Float32Array(360).fill(radius);
      return { radiiPx, polygon: polygonOf(radiiPx, size / 2, size / 2), controlPoints: controlPointsOf(radiiPx, size / 2, size / 2, 16) };
    };
    const failed = { lumen: edge(size / 2 - 3), vessel: edge(size / 2 - 1), confidence: 0 };
    expect(failed.confidence).toBeLessThan(TRUSTED_CONFIDENCE);
    const withFailure = detector().detect(current, failed, previousFrame);
    const withoutPrevious = detector().detect(current, null, previousFrame);
    expect(withFailure.lumen.radiiPx).toEqual(withoutPrevious.lumen.radiiPx);
    expect(withFailure.vessel.radiiPx).toEqual(withoutPrevious.vessel.radiiPx);

    // The server's carry across chunks behaves the same way.
    const carried = detectBorderSequence(detector(), current, geometry, carryOf(failed, previousFrame)).detections[0]!;
    const fresh = detectBorderSequence(detector(), concat([previousFrame, current]), geometry).detections[1]!;
    expect(dice(carried, 601).lumen).toBeGreaterThan(0.9);
    expect(Math.abs(dice(carried, 601).lumen - dice(fresh, 601).lumen)).toBeLessThanOrEqual(0.02);
  }, 30_000);

  // bench:contours' shuffled runs of these case types once read as over the limit (0.037, 0.045):
  // those frames were neighbours one to three apart, where the cue applies. Here the limit itself:
  // every frame after a non-neighbour gets its result alone, in the bench's own sequences.
  it.each(['cardiac-motion', 'side-branch'] as EvaluationCaseType[])('gives each %s frame after a non-neighbour, shuffled or after a drop, its result alone within 0.02 Dice', (type) => {
    const evaluation = evaluationCase(type, 2201);
    const { frameWidth, frameHeight, pixelSpacingMm } = evaluation;
    const caseGeometry = { frameWidth, frameHeight, pixelSpacingMm };
    const caseDice = (detection: SliceDetection, truth: TruthContours) => ({
      lumen: diceCoefficient(measuredOutline(detection.controlPoints), truth.lumen, frameWidth),
      vessel: diceCoefficient(measuredOutline(detection.vessel!.controlPoints), truth.vessel, frameWidth),
    });
    let nonNeighbours = 0;
    for (const kind of ['shuffled', 'dropped'] as const) {
      const sequence = frameSequence(evaluation, kind);
      const pixels = sequence.frames.map((_, k) => sequence.render(k).slice());
      const bytes = new Uint8Array(pixels.length * frameWidth * frameHeight);
      pixels.forEach((p, k) => bytes.set(p, k * frameWidth * frameHeight));
      const { detections } = detectBorderSequence(createBorderDetector(caseGeometry), bytes, caseGeometry);
      sequence.frames.forEach((frame, k) => {
        if (sequence.neighbours[k === 0 ? 0 : k - 1]) return;
        nonNeighbours++;
        const inSequence = caseDice(detections[k]!, frame.truth);
        const single = caseDice(detectBorderSequence(createBorderDetector(caseGeometry), pixels[k]!, caseGeometry).detections[0]!, frame.truth);
        expect(Math.abs(inSequence.lumen - single.lumen)).toBeLessThanOrEqual(0.02);
        expect(Math.abs(inSequence.vessel - single.vessel)).toBeLessThanOrEqual(0.02);
      });
    }
    expect(nonNeighbours).toBeGreaterThan(4);
  }, 180_000);
});
