/**
 * The calcium measurement group of the SR (issue 28): the IVUS calcium score and its four points,
 * the largest arc on its frame, the longest calcium, the EEM diameter the vessel point rests on, and
 * the score's definition as a comment. Private codes (99IVUSREV) where DICOM has none.
 */
import type { RecordCalcium } from '../../../domain/calcium/record-calcium.ts';
import { CALCIUM_SCORE_DEFINITION } from '../../../domain/calcium/record-calcium.ts';
import { sliceRanges } from '../../../domain/calcium/corrected-calcium.ts';
import { newUid, type Naturalized } from './dcmjs.ts';
import { CODES, container, image, num, PRIVATE_SCHEME, text, uidRef, UNITS, type Code, type FrameReference } from './sr-content.ts';

const privateCode = (value: string, meaning: string): Code => ({ value, scheme: PRIVATE_SCHEME, meaning });

export const CALCIUM_CODES = {
  score: privateCode('CALCIUMSCORE', 'IVUS calcium score'),
  longArc: privateCode('CALCIUMLONGARC', 'Calcium > 270 degrees over > 5 mm'),
  circumferential: privateCode('CALCIUM360', 'Circumferential (360 degrees) calcium'),
  nodule: privateCode('CALCIFIEDNODULE', 'Calcified nodule'),
  smallVessel: privateCode('CALCIUMSMALLVESSEL', 'Vessel diameter < 3.5 mm'),
  maxArc: privateCode('CALCIUMMAXARC', 'Largest calcium arc'),
  longest: privateCode('CALCIUMLENGTH', 'Longest calcium length'),
  vesselDiameter: privateCode('CALCIUMEEMDIAMETER', 'EEM mean diameter beside the largest calcium arc'),
  onCorrectedBorder: privateCode('CALCIUMONCORR', 'Calcium arc measured on a lumen border corrected by hand'),
  setByHand: privateCode('CALCIUMBYHAND', 'Calcium arc set by hand'),
} as const;
const POINTS: Code = { value: '{points}', scheme: 'UCUM', meaning: 'points' };

/** The group, or null where the contours carry no calcium (detected before calcium was). */
export function calciumGroup(calcium: RecordCalcium, frameOf: (slice: number) => FrameReference): Naturalized | null {
  if (!calcium.measured) return null;
  const { score } = calcium;
  const items: Naturalized[] = [
    num('CONTAINS', CALCIUM_CODES.score, score.total, POINTS),
    num('CONTAINS', CALCIUM_CODES.longArc, score.longArc.point, POINTS),
    num('CONTAINS', CALCIUM_CODES.circumferential, score.circumferential.point, POINTS),
    num('CONTAINS', CALCIUM_CODES.nodule, score.nodule.point, POINTS),
    num('CONTAINS', CALCIUM_CODES.smallVessel, score.smallVessel.point, POINTS),
  ];
  if (score.maxArc) items.push(num('CONTAINS', CALCIUM_CODES.maxArc, score.maxArc.arcDeg, UNITS.deg, [image('INFERRED FROM', frameOf(score.maxArc.index + 1))]));
  if (score.longestCalcium) items.push(num('CONTAINS', CALCIUM_CODES.longest, score.longestCalcium.lengthMm, UNITS.mm));
  if (score.smallVessel.diameterMm !== null) items.push(num('CONTAINS', CALCIUM_CODES.vesselDiameter, score.smallVessel.diameterMm, UNITS.mm));
  // Which frames' arcs the clinician's corrections changed, as slice ranges (1-based, as the review's).
  if (calcium.onCorrectedBorder.length > 0) items.push(text('CONTAINS', CALCIUM_CODES.onCorrectedBorder, `slices ${sliceRanges(calcium.onCorrectedBorder).replaceAll('–', '-')}`));
  if (calcium.setByHand.length > 0) items.push(text('CONTAINS', CALCIUM_CODES.setByHand, `slices ${sliceRanges(calcium.setByHand).replaceAll('–', '-')}`));
  // In ASCII: a plain-text SR reader (and dcmtk's VR checker) need no UTF-8 for a fixed text of ours.
  items.push(text('CONTAINS', CODES.comment, CALCIUM_SCORE_DEFINITION.replaceAll('°', ' degrees').replaceAll('Ø', 'diameter')));
  return container('CONTAINS', CODES.measurementGroup, [
    text('HAS OBS CONTEXT', CODES.trackingIdentifier, 'Calcium'),
    uidRef('HAS OBS CONTEXT', CODES.trackingUid, newUid()),
    ...items,
  ]);
}
