/**
 * The gated measurement group of the SR (issue 28), written when the clinician sent with gating on
 * and the server's own gating of the record's frames found cardiac cycles: the number of gated
 * (end-diastolic) frames and the heart rate, the MLA, both references, the area stenosis and the
 * lesion length searched among the gated frames only, the gated slices and how they were found.
 * The report's other groups keep all frames, so both readings stand side by side, each named.
 *
 * | concept                          | code                                                          | unit       |
 * |----------------------------------|---------------------------------------------------------------|------------|
 * | gated frames                     | (GATEDFRAMES, 99IVUSREV, "Gated frames (end-diastole)")       | {frames}   |
 * | heart rate                       | (8867-4, LN, "Heart rate")                                    | {beats}/min |
 * | gated MLA                        | (GATEDMLA, 99IVUSREV, "Gated minimal lumen area") > IMAGE     | mm2        |
 * | gated distal / proximal reference | (GATEDDISTALREF / GATEDPROXREF, 99IVUSREV) > IMAGE           | mm2        |
 * | gated area stenosis              | (GATEDSTENOSIS, 99IVUSREV, "Gated lumen area stenosis")       | %          |
 * | gated lesion length              | (GATEDLESIONLEN, 99IVUSREV, "Gated lesion length")            | mm         |
 * | gated slices, method             | (121106, DCM, "Comment")                                      |            |
 */
import type { LesionResults } from '../../../domain/contours/lesion-results.ts';
import { GATED_METHOD_LINES } from '../../../domain/gating/gated-export.ts';
import { newUid, type Naturalized } from './dcmjs.ts';
import { CODES, container, image, num, PRIVATE_SCHEME, text, uidRef, UNITS, type Code, type FrameReference } from './sr-content.ts';

const privateCode = (value: string, meaning: string): Code => ({ value, scheme: PRIVATE_SCHEME, meaning });

export const GATED_CODES = {
  frames: privateCode('GATEDFRAMES', 'Gated frames (end-diastole)'),
  heartRate: { value: '8867-4', scheme: 'LN', meaning: 'Heart rate' },
  mla: privateCode('GATEDMLA', 'Gated minimal lumen area'),
  distalReference: privateCode('GATEDDISTALREF', 'Gated distal reference lumen area'),
  proximalReference: privateCode('GATEDPROXREF', 'Gated proximal reference lumen area'),
  stenosis: privateCode('GATEDSTENOSIS', 'Gated lumen area stenosis'),
  lesionLength: privateCode('GATEDLESIONLEN', 'Gated lesion length'),
} as const satisfies Record<string, Code>;
const FRAMES: Code = { value: '{frames}', scheme: 'UCUM', meaning: 'frames' };
const PER_MINUTE: Code = { value: '{beats}/min', scheme: 'UCUM', meaning: 'beats per minute' };

export interface GatedContent {
  /** 0-based end-diastolic frames, one per cycle (the server's own gating). */
  readonly endDiastolicFrames: readonly number[];
  readonly heartRateBpm: number;
  /** The results searched among those frames only (lesionResults of gatedAnalysis). */
  readonly results: LesionResults;
}

export function gatedGroup(gated: GatedContent, frameOf: (slice: number) => FrameReference): Naturalized {
  const { results } = gated;
  const onFrame = (slice: number) => [image('INFERRED FROM', frameOf(slice))];
  const items: Naturalized[] = [
    num('CONTAINS', GATED_CODES.frames, gated.endDiastolicFrames.length, FRAMES),
    num('CONTAINS', GATED_CODES.heartRate, Math.round(gated.heartRateBpm), PER_MINUTE),
  ];
  if (results.mla) items.push(num('CONTAINS', GATED_CODES.mla, results.mla.areaMm2, UNITS.mm2, onFrame(results.mla.slice)));
  if (results.distalReference) items.push(num('CONTAINS', GATED_CODES.distalReference, results.distalReference.areaMm2, UNITS.mm2, onFrame(results.distalReference.slice)));
  if (results.proximalReference) {
    items.push(num('CONTAINS', GATED_CODES.proximalReference, results.proximalReference.areaMm2, UNITS.mm2, onFrame(results.proximalReference.slice)));
  }
  if (results.areaStenosisPercent !== null) items.push(num('CONTAINS', GATED_CODES.stenosis, results.areaStenosisPercent, UNITS.percent));
  if (results.lesionLengthMm !== null) items.push(num('CONTAINS', GATED_CODES.lesionLength, results.lesionLengthMm, UNITS.mm));
  items.push(
    text('CONTAINS', CODES.comment, `Gated slices: ${gated.endDiastolicFrames.map((frame) => frame + 1).join(', ')}`),
    text('CONTAINS', CODES.comment, GATED_METHOD_LINES.join(' ')),
  );
  return container('CONTAINS', CODES.measurementGroup, [
    text('HAS OBS CONTEXT', CODES.trackingIdentifier, 'Gated analysis'),
    uidRef('HAS OBS CONTEXT', CODES.trackingUid, newUid()),
    ...items,
  ]);
}
