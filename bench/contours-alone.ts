/**
 * `node bench/contours-alone.ts`: each frame detected ALONE (no temporal neighbour: a gated or
 * shuffled export, one file) on the calibrated 20 MHz case types (issue 23), scored against the
 * generator's truth: lumen Dice (mean, worst), signed and absolute lumen area error, vessel Dice,
 * and, from the detector's blood log-odds, its mean over the true lumen and over the true plaque
 * (between the borders), so a change of the likelihood is visible where it acts.
 *
 *   --tuning        TUNING_SEEDS instead of EVALUATION_SEEDS
 *   --types a,b     case types (default: coronary-20mhz, bright-adventitia, low-signal-arc)
 *   --tune json     a partial BorderDetectorTuning (tuning runs only)
 *   --frames n      frames per case (default all of the run)
 *   --seeds 1,2     other seeds (neither tuning nor evaluation ones: a development set)
 */
import { diceCoefficient } from '../src/domain/contours/agreement.ts';
import { createBorderDetector, type BorderDetectorTuning } from '../src/domain/contours/border-detector.ts';
import { lumenAreaMm2, measuredOutline } from '../src/domain/contours/measurements.ts';
import { polygonAreaMm2 } from '../src/domain/synthetic/contours.ts';
import { EVALUATION_SEEDS, evaluationCase, type EvaluationCaseType } from '../src/domain/synthetic/evaluation-cases.ts';
import type { ImagePoint } from '../src/domain/image-point.ts';
import { caseSelection } from './case-selection.ts';

const args = process.argv.slice(2);
const CORONARY_TYPES: EvaluationCaseType[] = ['coronary-20mhz', 'bright-adventitia', 'low-signal-arc'];
const selection = caseSelection(args);
const seedsAt = args.indexOf('--seeds');
const seeds = seedsAt >= 0 ? (args[seedsAt + 1] ?? '').split(',').map(Number) : selection.seeds;
if (seedsAt >= 0 && seeds.some((seed) => EVALUATION_SEEDS.includes(seed))) throw new Error('--seeds must not include evaluation seeds');
const types = args.includes('--types') ? selection.types : CORONARY_TYPES;
const tuneAt = args.indexOf('--tune');
const tune = tuneAt >= 0 ? (JSON.parse(args[tuneAt + 1]!) as Partial<BorderDetectorTuning>) : undefined;
if (tune && !selection.tuning && seedsAt < 0) throw new Error('--tune only with --tuning: never fit on evaluation seeds');
const framesAt = args.indexOf('--frames');
const frameLimit = framesAt >= 0 ? Number(args[framesAt + 1]) : Infinity;

/** Radius of a closed polygon around (cx, cy) along angle θ: the nearest vertex by angle. */
function radiusTable(points: readonly ImagePoint[], cx: number, cy: number, angleCount: number): Float32Array {
  const radii = new Float32Array(angleCount);
  const best = new Float32Array(angleCount).fill(Infinity);
  for (const p of points) {
    const angle = Math.atan2(p.y - cy, p.x - cx);
    const a = ((Math.round((angle / (2 * Math.PI)) * angleCount) % angleCount) + angleCount) % angleCount;
    const off = Math.abs(angle / (2 * Math.PI) * angleCount - Math.round(angle / (2 * Math.PI) * angleCount));
    if (off < best[a]!) {
      best[a] = off;
      radii[a] = Math.hypot(p.x - cx, p.y - cy);
    }
  }
  for (let a = 0; a < angleCount; a++) {
    if (best[a] !== Infinity) continue;
    let l = a;
    while (best[l] === Infinity) l = (l + angleCount - 1) % angleCount;
    radii[a] = radii[l]!;
  }
  return radii;
}

console.info(`frames alone, ${seedsAt >= 0 ? 'DEVELOPMENT' : selection.tuning ? 'TUNING' : 'EVALUATION'} seeds ${seeds.join(',')}${tune ? ` tune ${JSON.stringify(tune)}` : ''}`);
console.info('type                 frames  lumen Dice mean/worst  <0.80  area err % (signed/abs)  vessel Dice  logit blood/plaque');
const total = { frames: 0, dice: 0, worst: 1, below: 0, signed: 0, abs: 0, vessel: 0 };
for (const type of types) {
  const row = { frames: 0, dice: 0, worst: 1, below: 0, signed: 0, abs: 0, vessel: 0, logitBlood: 0, logitPlaque: 0 };
  for (const seed of seeds) {
    const evaluation = evaluationCase(type, seed);
    const size = evaluation.frameWidth;
    const count = Math.min(evaluation.frames.length, frameLimit);
    for (let k = 0; k < count; k++) {
      const frame = evaluation.frames[k]!;
      const centre = frame.catheterCentre;
      const detector = createBorderDetector({ frameWidth: size, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y, tuning: tune });
      const detection = detector.detect(evaluation.render(k), null, null);
      const truth = frame.truth;
      const dice = diceCoefficient(measuredOutline(detection.lumen.controlPoints), truth.lumen, size);
      const trueArea = polygonAreaMm2(truth.lumen, evaluation.pixelSpacingMm);
      const signed = (100 * (lumenAreaMm2(detection.lumen.controlPoints, evaluation.pixelSpacingMm) - trueArea)) / trueArea;
      row.frames++;
      row.dice += dice;
      row.worst = Math.min(row.worst, dice);
      if (dice < 0.8) row.below++;
      row.signed += signed;
      row.abs += Math.abs(signed);
      row.vessel += diceCoefficient(measuredOutline(detection.vessel.controlPoints), truth.vessel, size);
      const odds = detector.bloodLogOdds();
      const lumenR = radiusTable(truth.lumen, centre.x, centre.y, odds.angleCount);
      const vesselR = radiusTable(truth.vessel, centre.x, centre.y, odds.angleCount);
      let sb = 0, nb = 0, sp = 0, np = 0;
      for (let a = 0; a < odds.angleCount; a++) {
        for (let s = 0; s < odds.sampleCount; s++) {
          const r = odds.radiusPx(s);
          const v = odds.values[a * odds.sampleCount + s]!;
          if (r > 0.9 / evaluation.pixelSpacingMm && r < lumenR[a]! - 3) { sb += v; nb++; }
          else if (r > lumenR[a]! + 3 && r < vesselR[a]! - 3) { sp += v; np++; }
        }
      }
      row.logitBlood += nb > 0 ? sb / nb : 0;
      row.logitPlaque += np > 0 ? sp / np : 0;
      if (args.includes('--worst') && dice < 0.85) console.info(`  ${type} seed ${seed} frame ${k}: lumen Dice ${dice.toFixed(3)}, area ${signed.toFixed(1)} %`);
    }
  }
  const f = row.frames;
  console.info(`${type.padEnd(20)} ${String(f).padStart(6)}  ${(row.dice / f).toFixed(3)} / ${row.worst.toFixed(3)}        ${String(row.below).padStart(4)}   ${(row.signed / f).toFixed(1).padStart(7)} / ${(row.abs / f).toFixed(1).padStart(5)}         ${(row.vessel / f).toFixed(3)}      ${(row.logitBlood / f).toFixed(2)} / ${(row.logitPlaque / f).toFixed(2)}`);
  total.frames += f; total.dice += row.dice; total.worst = Math.min(total.worst, row.worst); total.below += row.below; total.signed += row.signed; total.abs += row.abs; total.vessel += row.vessel;
}
const f = total.frames;
console.info(`${'all'.padEnd(20)} ${String(f).padStart(6)}  ${(total.dice / f).toFixed(3)} / ${total.worst.toFixed(3)}        ${String(total.below).padStart(4)}   ${(total.signed / f).toFixed(1).padStart(7)} / ${(total.abs / f).toFixed(1).padStart(5)}         ${(total.vessel / f).toFixed(3)}`);
