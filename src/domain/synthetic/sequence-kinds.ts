/**
 * Sequences of frames as real inputs come (issue 23): not only consecutive frames of one pullback,
 * but gated exports (one frame per heartbeat), frames in any order, runs with dropped frames and
 * series stitched from two pullbacks. Each sequence carries, per frame, the truth borders, where the
 * frame lies along its pullback and in the heart cycle, and which frames are temporal neighbours
 * (where a cue like "blood decorrelates from frame to frame, tissue persists" holds). Pure: every
 * choice comes from the evaluation case's seed.
 */
import { seededRandom } from '../random.ts';
import { createBmodeRenderer, type BmodeRenderer } from './bmode-frame.ts';
import { catheterCentrePx, truthContours, type TruthContours } from './contours.ts';
import { crossSectionAt } from './cross-section.ts';
import type { EvaluationCase } from './evaluation-cases.ts';
import { deriveSeed } from './hash.ts';
import type { ImagePoint } from '../image-point.ts';
import { createPullbackModel, type PullbackModel } from './pullback-model.ts';

export const SEQUENCE_KINDS = ['consecutive', 'gated', 'shuffled', 'dropped', 'stitched'] as const;
export type SequenceKind = (typeof SEQUENCE_KINDS)[number];

/**
 * Frames of one run at most this many frames apart are temporal neighbours: at 30 frames/s that is
 * 0.1 s and 0.05 mm of pullback, within the elevational beam, so the tissue's speckle persists
 * while the blood's has changed. Further apart (a dropped stretch, a heartbeat) the cue is invalid.
 */
export const MAX_NEIGHBOUR_GAP_FRAMES = 3;
/** The heart rate assumed where the model has no cardiac motion (60 beats/min). */
export const NOMINAL_HEART_RATE_HZ = 1;
/** How far a gated frame may lie from its R wave, in cycles (trigger latency, beat-to-beat variation). */
export const GATING_JITTER = 0.05;
/** Share of steps in a 'dropped' sequence that lose frames, and how many frames a drop skips at most. */
const DROP_SHARE = 0.3;
const MAX_DROP_GAP_FRAMES = 12;
/** Random streams of the sequences' own draws and of a stitched series' second pullback. */
const SEQUENCE_STREAM = 0x5e9;
const SECOND_RUN_STREAM = 0x2d2;

export interface SequenceFrame {
  /** Which pullback the frame comes from: 0 the case's own, 1 the second run of a stitched series. */
  readonly run: number;
  /** Index of the frame in its run's model. */
  readonly frameIndex: number;
  readonly truth: TruthContours;
  readonly catheterCentre: ImagePoint;
  /** Where along its pullback the frame looks, in mm (with the heart's back-and-forth motion). */
  readonly positionMm: number;
  /** Time since the run's start in heart cycles, from the cycle's phase 0 (the integer part counts beats). */
  readonly cardiacCycles: number;
}

export interface FrameSequence {
  readonly kind: SequenceKind;
  readonly frames: readonly SequenceFrame[];
  /** neighbours[k]: frames k and k + 1 are temporal neighbours (see areTemporalNeighbours). */
  readonly neighbours: readonly boolean[];
  /** The pixels of frames[k], as the case renders them: a new array each call. */
  render(k: number): Uint8Array;
}

export function areTemporalNeighbours(a: SequenceFrame, b: SequenceFrame): boolean {
  return a.run === b.run && a.frameIndex !== b.frameIndex && Math.abs(a.frameIndex - b.frameIndex) <= MAX_NEIGHBOUR_GAP_FRAMES;
}

/** The heart rate of a model, and the cycle's phase at frame 0 (in cycles). */
function heartOf(model: PullbackModel): { rateHz: number; startCycles: number } {
  const cardiac = model.hardCases?.cardiac ?? null;
  return cardiac === null ? { rateHz: NOMINAL_HEART_RATE_HZ, startCycles: 0 } : { rateHz: cardiac.heartRateHz, startCycles: cardiac.phaseRad / (2 * Math.PI) };
}

function sequenceFrame(model: PullbackModel, run: number, frameIndex: number): SequenceFrame {
  const heart = heartOf(model);
  return {
    run,
    frameIndex,
    truth: truthContours(model, frameIndex),
    catheterCentre: catheterCentrePx(model),
    positionMm: crossSectionAt(model, frameIndex).zMm,
    cardiacCycles: heart.startCycles + (heart.rateHz * frameIndex) / model.frameRateHz,
  };
}

export interface SequenceOptions {
  /** Frames in the sequence; the case's run length by default. */
  readonly length?: number;
}

/**
 * The case's frames as a sequence of the given kind:
 * - consecutive: the case's own run;
 * - gated: one frame per heartbeat from the run's first frame on, near each R wave (the cycle's phase
 *   0, give or take GATING_JITTER), so neighbours are a heartbeat apart in time, about 0.5 mm apart
 *   along the vessel, at a slightly different phase;
 * - shuffled: the consecutive frames in a random order (never the original one);
 * - dropped: consecutive frames where about a third of the steps skip 1 to 11 frames;
 * - stitched: the first half of the consecutive frames, then consecutive frames of a second pullback
 *   of the same kind (another anatomy, same scanner and geometry): one jump.
 */
export function frameSequence(evaluation: EvaluationCase, kind: SequenceKind, options: SequenceOptions = {}): FrameSequence {
  const length = options.length ?? evaluation.frames.length;
  if (!Number.isInteger(length) || length < 2) throw new RangeError(`a sequence needs at least 2 frames, got ${length}`);
  const model = evaluation.model;
  const random = seededRandom(deriveSeed(evaluation.seed ^ SEQUENCE_STREAM, SEQUENCE_KINDS.indexOf(kind) + 1));
  const first = evaluation.frames[0]!.frameIndex;
  const models: PullbackModel[] = [model];
  const picks: { run: number; frameIndex: number }[] = [];
  const consecutiveFrom = (start: number, count: number, run: number): void => {
    const from = Math.max(0, Math.min(models[run]!.frameCount - count, start));
    for (let k = 0; k < count; k++) picks.push({ run, frameIndex: from + k });
  };

  switch (kind) {
    case 'consecutive':
      consecutiveFrom(first, length, 0);
      break;
    case 'shuffled': {
      consecutiveFrom(first, length, 0);
      do {
        for (let k = picks.length - 1; k > 0; k--) {
          const j = Math.floor(random() * (k + 1));
          [picks[k], picks[j]] = [picks[j]!, picks[k]!];
        }
      } while (picks.every((pick, k) => k === 0 || pick.frameIndex > picks[k - 1]!.frameIndex));
      break;
    }
    case 'dropped': {
      const steps = Array.from({ length: length - 1 }, () => (random() < DROP_SHARE ? 2 + Math.floor(random() * (MAX_DROP_GAP_FRAMES - 1)) : 1));
      // At least one drop the temporal cue cannot bridge.
      if (!steps.some((step) => step > MAX_NEIGHBOUR_GAP_FRAMES)) steps[Math.floor(random() * steps.length)] = MAX_NEIGHBOUR_GAP_FRAMES + 3;
      const span = steps.reduce((sum, step) => sum + step, 0);
      let frameIndex = Math.max(0, Math.min(model.frameCount - 1 - span, first));
      picks.push({ run: 0, frameIndex });
      for (const step of steps) picks.push({ run: 0, frameIndex: (frameIndex += step) });
      break;
    }
    case 'gated': {
      const heart = heartOf(model);
      const framesPerBeat = model.frameRateHz / heart.rateHz;
      // The first R wave at or after the run's first frame.
      const firstCycles = heart.startCycles + (heart.rateHz * first) / model.frameRateHz;
      const room = model.frameCount - 1 - Math.ceil((length + 1) * framesPerBeat);
      const firstBeat = Math.min(first + (Math.ceil(firstCycles) - firstCycles) * framesPerBeat, Math.max(0, room));
      for (let k = 0; k < length; k++) {
        // The frame the trigger picked near the k-th R wave: early or late by a few per cent of the cycle.
        const jitter = GATING_JITTER * framesPerBeat * (2 * random() - 1);
        picks.push({ run: 0, frameIndex: Math.max(0, Math.round(firstBeat + k * framesPerBeat + jitter)) });
      }
      break;
    }
    case 'stitched': {
      const second = createPullbackModel({ ...evaluation.modelOptions, seed: deriveSeed(evaluation.modelOptions.seed, SECOND_RUN_STREAM) });
      models.push(second);
      const half = Math.floor(length / 2);
      consecutiveFrom(first, half, 0);
      consecutiveFrom(Math.floor(random() * (second.frameCount - (length - half))), length - half, 1);
      break;
    }
  }

  const frames = picks.map((pick) => sequenceFrame(models[pick.run]!, pick.run, pick.frameIndex));
  const renderers: (BmodeRenderer | null)[] = models.map(() => null);
  return {
    kind,
    frames,
    neighbours: frames.slice(1).map((frame, k) => areTemporalNeighbours(frames[k]!, frame)),
    render(k) {
      const frame = frames[k];
      if (frame === undefined) throw new RangeError(`frame ${k} is outside the sequence of ${frames.length}`);
      const renderer = (renderers[frame.run] ??= createBmodeRenderer(models[frame.run]!));
      return renderer.renderFrame(frame.frameIndex);
    },
  };
}
