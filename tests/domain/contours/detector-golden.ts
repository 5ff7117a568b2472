/**
 * The detector's output on a fixed set of generated frames, reduced to one digest per (case type,
 * sequence kind): what the speed work on the detector (issue 23) must leave bit for bit unchanged.
 * Every case type of the evaluation set is covered (each look, frame size and pixel spacing), each
 * frame detected alone and inside a sequence, and each sequence kind (consecutive, gated, shuffled,
 * dropped, stitched) on a few case types, so that the temporal cue, the continuity and the
 * alone-path are all exercised.
 *
 * A digest is the SHA-256 of the exact bytes of both borders' radii (float32), their control points
 * and the confidence (float64) and readability of every frame, so any change of even the last bit
 * shows, and of the detector's exposed internals (addInternals).
 */
import { createHash } from 'node:crypto';
import { createBorderDetector, type InspectableBorderDetector } from '../../../src/domain/contours/border-detector.ts';
import type { BorderDetection } from '../../../src/domain/contours/border-detection.ts';
import { EVALUATION_CASE_TYPES, evaluationCase, type EvaluationCaseType } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { SEQUENCE_KINDS, frameSequence, type SequenceKind } from '../../../src/domain/synthetic/sequence-kinds.ts';

/** Seed of the golden frames (an evaluation seed: nothing is tuned on the digests). */
export const GOLDEN_SEED = 2201;
/** Frames per sequence: short, since rendering dominates the test's time. */
export const GOLDEN_FRAMES = 3;

/** The sequence kinds each case type is run as besides 'consecutive', spread so each kind is met on several looks. */
export function goldenKinds(type: EvaluationCaseType): SequenceKind[] {
  const others = SEQUENCE_KINDS.filter((kind) => kind !== 'consecutive');
  return ['consecutive', others[EVALUATION_CASE_TYPES.indexOf(type) % others.length]!];
}

/**
 * Besides the output, what the detector exposes of its inside (InspectableBorderDetector): the last
 * frame's blood log-odds map, the confidence's inputs, the neighbour score and the readability
 * features. Stricter than the output alone (a change of float order inside a cost rarely moves a
 * border on a few frames, but it moves these), so a rewrite that keeps the arithmetic shows it did.
 */
function addInternals(hash: ReturnType<typeof createHash>, detector: InspectableBorderDetector): void {
  const logOdds = detector.bloodLogOdds().values;
  hash.update(new Uint8Array(logOdds.buffer, logOdds.byteOffset, logOdds.byteLength));
  hash.update(JSON.stringify([detector.confidenceInputs(), detector.neighbourScore(), detector.readability()]));
}

function addDetection(hash: ReturnType<typeof createHash>, detection: BorderDetection): void {
  for (const border of [detection.lumen, detection.vessel]) {
    hash.update(new Uint8Array(border.radiiPx.buffer, border.radiiPx.byteOffset, border.radiiPx.byteLength));
    hash.update(new Uint8Array(Float64Array.from(border.controlPoints.flatMap((p) => [p.x, p.y])).buffer));
  }
  hash.update(new Uint8Array(Float64Array.of(detection.confidence).buffer));
  hash.update(String(detection.readable));
}

/** Digests of one case type: 'alone' (the consecutive frames each detected alone) and each kind of goldenKinds. */
export function goldenDigests(type: EvaluationCaseType): Record<string, string> {
  const evaluation = evaluationCase(type, GOLDEN_SEED);
  const centre = evaluation.frames[0]!.catheterCentre;
  const detector = () =>
    createBorderDetector({ frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
  const out: Record<string, string> = {};
  for (const kind of goldenKinds(type)) {
    const sequence = frameSequence(evaluation, kind, { length: GOLDEN_FRAMES });
    const frames = sequence.frames.map((_, k) => sequence.render(k));
    const hash = createHash('sha256');
    const sequenceDetector = detector();
    let previous: BorderDetection | null = null;
    frames.forEach((pixels, k) => {
      // As the CLI and the server give them: the first frame is offered the next one's pixels.
      previous = sequenceDetector.detect(pixels, previous, k === 0 ? (frames[1] ?? null) : frames[k - 1]!);
      addDetection(hash, previous);
      addInternals(hash, sequenceDetector);
    });
    out[`${type}/${kind}`] = hash.digest('hex').slice(0, 24);
    if (kind === 'consecutive') {
      const aloneHash = createHash('sha256');
      const aloneDetector = detector();
      for (const pixels of frames) {
        addDetection(aloneHash, aloneDetector.detect(pixels, null, null));
        addInternals(aloneHash, aloneDetector);
      }
      out[`${type}/alone`] = aloneHash.digest('hex').slice(0, 24);
    }
  }
  return out;
}
