import { describe, expect, it } from 'vitest';
import { diceCoefficient } from '../../../src/domain/contours/agreement.ts';
import { createBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import { DEFAULT_TUNING } from '../../../src/domain/contours/border-tuning.ts';
import { lumenAreaMm2, measuredOutline } from '../../../src/domain/contours/measurements.ts';
import { bloodLogit, computeFeatures, createFeatureMaps, estimateBloodModel, type BloodWeights } from '../../../src/domain/contours/speckle-features.ts';
import { polygonAreaMm2 } from '../../../src/domain/synthetic/contours.ts';
import { evaluationCase, TUNING_SEEDS } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { seededRandom } from '../../../src/domain/random.ts';

const ANGLES = 360;
const SAMPLES = 240;
/** Blood up to sample 80, plaque to 150, then the adventitia band: 8-bit levels of the real 20 MHz set (issue 23). */
const LUMEN_END = 80;
const PLAQUE_END = 150;

/**
 * A polar frame with the real set's statistics, not the generator's rendering: blood nearly black
 * (mean 10, 90th percentile 30, std 13, clipped at the display floor; the real set: 11, 29, 15), speckled plaque of the given median,
 * and an adventitia band of the given mean. Speckle: Rayleigh amplitude, log-compressed about the level.
 */
function realStatisticsFrame(plaqueLevel: number, adventitiaLevel: number): Float32Array {
  const random = seededRandom(23);
  const polar = new Float32Array(ANGLES * SAMPLES);
  const speckle = (level: number, spread: number): number => {
    const rayleigh = Math.sqrt(-2 * Math.log(1 - random()));
    return Math.max(0, Math.min(255, level + spread * Math.log(rayleigh / 1.18) * 2.3));
  };
  for (let a = 0; a < ANGLES; a++) {
    for (let k = 0; k < SAMPLES; k++) {
      polar[a * SAMPLES + k] = k < LUMEN_END ? speckle(3, 20) : k < PLAQUE_END ? speckle(plaqueLevel, 12) : speckle(adventitiaLevel, 12);
    }
  }
  return polar;
}

/** Mean blood log-odds of the frame read alone, in the blood and in the plaque (away from their border). */
function logOddsAlone(polar: Float32Array, weights: BloodWeights): { blood: number; plaque: number } {
  const maps = createFeatureMaps(ANGLES, SAMPLES);
  const windows = { meanRays: 1, meanSamples: 1, statRays: 3, statSamples: 3 };
  const variance = computeFeatures(polar, maps, ANGLES, SAMPLES, 10, windows);
  const model = estimateBloodModel(maps, variance, false, ANGLES, SAMPLES, 10, 20);
  const out = new Float32Array(ANGLES * SAMPLES);
  const inside = new Int32Array(ANGLES).fill(SAMPLES);
  bloodLogit(maps, model, weights, new Float32Array(SAMPLES), inside, ANGLES, SAMPLES, out);
  const meanOver = (from: number, to: number): number => {
    let sum = 0;
    for (let a = 0; a < ANGLES; a++) for (let k = from; k < to; k++) sum += out[a * SAMPLES + k]!;
    return sum / (ANGLES * (to - from));
  };
  return { blood: meanOver(15, LUMEN_END - 8), plaque: meanOver(LUMEN_END + 8, PLAQUE_END - 8) };
}

describe('single-frame blood evidence on absolute gray levels (issue 23)', () => {
  it('reads a moderately dark plaque next to a very bright adventitia as tissue, not blood, on a frame alone', () => {
    // The over-segmented real frames: plaque median 60-68, adventitia 150-180.
    const polar = realStatisticsFrame(62, 170);
    const absolute = logOddsAlone(polar, DEFAULT_TUNING.blood);
    expect(absolute.blood).toBeGreaterThan(1);
    expect(absolute.plaque).toBeLessThan(-1);
    // Relative to the adventitia alone (the detector before), that plaque read as blood.
    const relative = logOddsAlone(polar, { ...DEFAULT_TUNING.blood, darkCeiling: -1 });
    expect(relative.plaque).toBeGreaterThan(0);
  });

  it('keeps the darkest plaque of the real set (median 27) on the tissue side of blood', () => {
    const { blood, plaque } = logOddsAlone(realStatisticsFrame(27, 125), DEFAULT_TUNING.blood);
    expect(plaque).toBeLessThan(0);
    expect(blood - plaque).toBeGreaterThan(1.5);
  });

  it('finds the lumen of calibrated 20 MHz frames given alone, bright adventitia included: Dice ≥ 0.95, area error ≤ 8 %', { timeout: 60_000 }, () => {
    const dices: number[] = [];
    const areaErrors: number[] = [];
    for (const type of ['coronary-20mhz', 'bright-adventitia'] as const) {
      for (const seed of TUNING_SEEDS.slice(0, 3)) {
        const evaluation = evaluationCase(type, seed);
        const centre = evaluation.frames[0]!.catheterCentre;
        const detector = createBorderDetector({ frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
        for (const k of [0, 8]) {
          const truth = evaluation.frames[k]!.truth;
          const { lumen } = detector.detect(evaluation.render(k), null, null);
          dices.push(diceCoefficient(measuredOutline(lumen.controlPoints), truth.lumen, evaluation.frameWidth));
          const trueArea = polygonAreaMm2(truth.lumen, evaluation.pixelSpacingMm);
          areaErrors.push(Math.abs(lumenAreaMm2(lumen.controlPoints, evaluation.pixelSpacingMm) - trueArea) / trueArea);
        }
      }
    }
    const mean = (values: number[]): number => values.reduce((s, v) => s + v, 0) / values.length;
    expect(mean(dices)).toBeGreaterThan(0.95);
    expect(Math.min(...dices)).toBeGreaterThan(0.9);
    expect(mean(areaErrors)).toBeLessThan(0.08);
  });
});
