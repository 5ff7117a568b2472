/**
 * The generator's frames, pinned to the bit (issue 23: its speed is worked on, its output must not
 * move). Demo records' frames are stored and cached immutably under their imaging version, and the
 * accuracy benches' figures are only comparable from one turn to the next if their frames are the
 * same, so any change of a single grey level anywhere in these frames must fail here.
 *
 * Covered: the server's demo chunks (16 frames, as served) at the start, the lesion, the calcium,
 * a speckle re-draw and the end of two demo records, and of a post-PCI demo run through its stent;
 * the demo angiogram; every evaluation case type at a tuning and an evaluation seed; the stent,
 * calcium and gating cases the benches render. The digests were taken from the generator before
 * any optimisation (SHA-256 of the frames' bytes, concatenated in frame order).
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { renderAngioFrame } from '../../../src/domain/synthetic/angio-frame.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { calciumEvaluationPullback, CALCIUM_EVALUATION_KINDS } from '../../../src/domain/synthetic/calcium-evaluation.ts';
import { EVALUATION_CASE_TYPES, evaluationCase } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { gatingCase, GATING_DIFFICULTIES } from '../../../src/domain/synthetic/gating-cases.ts';
import { createPullbackModel, type PullbackModel, type PullbackModelOptions } from '../../../src/domain/synthetic/pullback-model.ts';
import { stentCase } from '../../../src/domain/synthetic/stent-cases.ts';
import { generateAngioFrames, generateFrames } from '../../../src/server/imaging/demo-pullback.ts';
import { GOLDEN_DIGESTS } from './generator-golden-digests.ts';

const CHUNK = 16;

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The server's demo records: the 3,600-frame record as the seed makes it (pre-PCI), and a post-PCI run with its stent. */
const DEMO_RECORDS: { readonly [name: string]: PullbackModelOptions } = {
  'demo seed 0': { seed: 0, frameCount: 3600, frameSizePx: 512, pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 },
  'demo seed 20260': { seed: 20260, frameCount: 3600 },
  'demo post-PCI seed 1234567893': { seed: 1234567893, frameCount: 1200, frameSizePx: 512, pixelSpacingMm: 0.01, hardCases: { deployedStent: true } },
};

const frameAt = (model: PullbackModel, mm: number) => Math.round((mm / model.pullbackSpeedMmPerS) * model.frameRateHz);
/** A chunk's first frame (chunks start at multiples of 16, as the server cuts them) around `frame`. */
const chunkAround = (model: PullbackModel, frame: number) => Math.min(model.frameCount - CHUNK, Math.max(0, Math.floor(frame / CHUNK) * CHUNK));

function demoChunkStarts(model: PullbackModel): { readonly [place: string]: number } {
  const places: { [place: string]: number } = {
    start: 0,
    // Frames 8k are where speckle is re-drawn; a chunk starting at 8 mod 16 straddles a blend's both ends.
    'speckle anchor': 1000,
    lesion: chunkAround(model, frameAt(model, model.anatomy.stenosisCentreMm)),
    calcium: chunkAround(model, frameAt(model, model.anatomy.calcium.centreMm)),
    end: model.frameCount - CHUNK,
  };
  const stent = model.hardCases?.deployedStent;
  if (stent) {
    places['stent edge'] = chunkAround(model, frameAt(model, stent.startMm));
    places['stent middle'] = chunkAround(model, frameAt(model, (stent.startMm + stent.endMm) / 2));
  }
  return places;
}

/** Computes every digest the table pins (printed by GOLDEN_PRINT=1 to regenerate it on purpose). */
function computeDigests(): Record<string, string> {
  const digests: Record<string, string> = {};
  for (const [name, options] of Object.entries(DEMO_RECORDS)) {
    const model = createPullbackModel(options);
    for (const [place, start] of Object.entries(demoChunkStarts(model))) {
      digests[`${name} b-mode ${place} (frames ${start}-${start + CHUNK - 1})`] = sha256(generateFrames(model, start, start + CHUNK));
    }
  }
  const angioModel = createPullbackModel(DEMO_RECORDS['demo seed 0']!);
  digests['demo seed 0 angio frames 0,1,60,119 of 120'] = sha256(
    Buffer.concat([generateAngioFrames(angioModel, 120, 512, 0, 2), generateAngioFrames(angioModel, 120, 512, 60, 61), generateAngioFrames(angioModel, 120, 512, 119, 120)]),
  );
  digests['demo seed 20260 angio frame 7 of 40 at 256 px'] = sha256(renderAngioFrame(createPullbackModel(DEMO_RECORDS['demo seed 20260']!), 7, 40, 256));

  for (const type of EVALUATION_CASE_TYPES) {
    for (const seed of [1101, 2203]) {
      const evaluation = evaluationCase(type, seed);
      digests[`evaluation ${type} seed ${seed} frames 0,7,15 of the run`] = sha256(Buffer.concat([0, 7, 15].map((k) => evaluation.render(k))));
    }
  }
  for (const [seed, cardiac] of [
    [1102, 0],
    [2201, 1],
  ] as const) {
    const { model } = stentCase(seed, cardiac);
    const renderer = createBmodeRenderer(model);
    const stent = model.hardCases!.deployedStent!;
    const frames = [stent.startMm + 0.3, (stent.startMm + stent.endMm) / 2, stent.underExpansion.centreMm].map((mm) => renderer.renderFrame(frameAt(model, mm)));
    digests[`stent case seed ${seed} cardiac ${cardiac}: stent start, middle, under-expansion`] = sha256(Buffer.concat(frames));
  }
  for (const kind of CALCIUM_EVALUATION_KINDS) {
    const pullback = calciumEvaluationPullback(kind, kind === 'plain' || kind === 'nodule' ? 1103 : 2202);
    const renderer = createBmodeRenderer(pullback.model);
    const sampled = pullback.frames.filter((frame) => frame.truth !== null || frame.noduleTruth).slice(0, 2);
    const frames = [...sampled.map((frame) => frame.frameIndex), pullback.frames[0]!.frameIndex].map((index) => renderer.renderFrame(index));
    digests[`calcium ${kind} seed ${pullback.seed}: two calcified samples and the first`] = sha256(Buffer.concat(frames));
  }
  for (const difficulty of GATING_DIFFICULTIES) {
    const gating = gatingCase(difficulty === 'nurd' ? 3101 : 4202, 75, difficulty);
    digests[`gating ${difficulty} seed ${gating.seed} frames 0,1,299`] = sha256(Buffer.concat([0, 1, 299].map((index) => gating.render(index))));
  }
  return digests;
}

describe('the generator, bit for bit', () => {
  it('renders every pinned frame exactly as before: demo chunks and angiogram, evaluation, stent, calcium and gating cases', { timeout: 120_000 }, () => {
    const digests = computeDigests();
    if (process.env.GOLDEN_PRINT === '1') console.info(JSON.stringify(digests, null, 2));
    expect(digests).toEqual(GOLDEN_DIGESTS);
  });

  it('renders a frame the same whatever was rendered before it and whichever renderer renders it', () => {
    // A renderer keeps tables and buffers between frames: nothing of one frame may leak into the next.
    const model = createPullbackModel(DEMO_RECORDS['demo seed 0']!);
    const inOrder = generateFrames(model, 1000, 1000 + CHUNK);
    const fresh = createBmodeRenderer(model);
    const frameBytes = model.frameSizePx * model.frameSizePx;
    const shuffled = new Uint8Array(inOrder.length);
    for (const k of [15, 3, 9, 0, 12, 6, 1, 14, 8, 4, 11, 2, 13, 7, 10, 5]) {
      fresh.renderFrame(3599 - k * 200, new Uint8Array(frameBytes));
      fresh.renderFrame(1000 + k, shuffled.subarray(k * frameBytes, (k + 1) * frameBytes));
    }
    expect(sha256(shuffled)).toBe(sha256(inOrder));
  });
});
