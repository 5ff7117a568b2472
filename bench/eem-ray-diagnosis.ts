/**
 * `node bench/eem-ray-diagnosis.ts TYPE SEED FRAME [--every N]`: where, round the circle,
 * the borders of one frame detected ALONE leave the truth (issue 23, the EEM across a low-signal arc).
 * Prints every Nth ray (default 5) with the true and detected lumen and EEM radii (mm, from the
 * catheter), and the generator's low-signal arcs on that frame (a side branch's ostium, a calcium
 * arc), so that one can tell a border run out along a branch's far wall from one pulled in to the
 * lumen behind calcium. The frame is detected as bench:contours detects a frame alone (no neighbour,
 * no previous borders). TYPE is an evaluation case type; SEED any seed (a tuning seed to fit on).
 */
import { diceCoefficient } from '../src/domain/contours/agreement.ts';
import { createBorderDetector } from '../src/domain/contours/border-detector.ts';
import { measuredOutline } from '../src/domain/contours/measurements.ts';
import { createBmodeRenderer } from '../src/domain/synthetic/bmode-frame.ts';
import { truthContours } from '../src/domain/synthetic/contours.ts';
import { crossSectionAt } from '../src/domain/synthetic/cross-section.ts';
import { evaluationCase, type EvaluationCaseType } from '../src/domain/synthetic/evaluation-cases.ts';

const args = process.argv.slice(2);
const [type, seedText, frameText] = args;
if (!type || !seedText || !frameText) throw new Error('usage: bench/eem-ray-diagnosis.ts TYPE SEED FRAME [--every N]');
const everyAt = args.indexOf('--every');
const every = everyAt >= 0 ? Number(args[everyAt + 1]) : 5;
const evaluation = evaluationCase(type as EvaluationCaseType, Number(seedText));
const frameIndex = Number(frameText);
const centre = evaluation.frames[0]!.catheterCentre;
const detector = createBorderDetector({ frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
// Any frame of the case's pullback, as contours-neighbour-diagnosis.ts renders them.
const detection = detector.detect(createBmodeRenderer(evaluation.model).renderFrame(frameIndex).slice(), null, null);
const truth = truthContours(evaluation.model, frameIndex);
const section = crossSectionAt(evaluation.model, frameIndex);
const mm = evaluation.pixelSpacingMm;
const size = evaluation.frameWidth;

const degrees = (rad: number): string => `${(((rad * 180) / Math.PI + 360) % 360).toFixed(0)}°`;
const arc = (name: string, a: { centreAngleRad: number; halfArcRad: number } | null): string =>
  a === null ? `${name}: none` : `${name}: ${degrees(a.centreAngleRad - a.halfArcRad)}–${degrees(a.centreAngleRad + a.halfArcRad)} (scene angles)`;
console.info(`${type} ${seedText} frame ${frameIndex}, detected alone: lumen Dice ${diceCoefficient(measuredOutline(detection.lumen.controlPoints), truth.lumen, size).toFixed(3)}, vessel Dice ${diceCoefficient(measuredOutline(detection.vessel.controlPoints), truth.vessel, size).toFixed(3)}, confidence ${detection.confidence.toFixed(2)}, EEM residual ${detection.eemResidualMm?.toFixed(3) ?? '–'} mm`);
console.info(`${arc('side branch ostium', section.branch)}; ${arc('calcium arc', section.calcium)}`);
console.info('ray  angle | truth lumen  EEM | detected lumen  EEM | EEM error mm');
const n = detection.vessel.radiiPx.length;
for (let a = 0; a < n; a += every) {
  const angle = (2 * Math.PI * a) / n;
  const scene = section.sceneAngleRad(angle);
  const trueLumen = section.lumenRadiusMm(scene);
  const trueEem = section.vesselRadiusMm(scene);
  const lumen = detection.lumen.radiiPx[a]! * mm;
  const eem = detection.vessel.radiiPx[a]! * mm;
  const error = eem - trueEem;
  const flag = Math.abs(error) > 0.2 ? (error > 0 ? '  out' : '  in') : '';
  console.info(`${String(a).padStart(3)} ${degrees(angle).padStart(5)} | ${trueLumen.toFixed(2).padStart(10)} ${trueEem.toFixed(2).padStart(5)} | ${lumen.toFixed(2).padStart(13)} ${eem.toFixed(2).padStart(5)} | ${error >= 0 ? '+' : ''}${error.toFixed(2)}${flag}`);
}
