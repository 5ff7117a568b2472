import { describe, expect, it } from 'vitest';
import { truthContours } from '../../../src/domain/synthetic/contours.ts';
import { crossSectionAt } from '../../../src/domain/synthetic/cross-section.ts';
import { EVALUATION_SEEDS, TUNING_SEEDS, evaluationCase, type EvaluationCaseType } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { GATING_JITTER, MAX_NEIGHBOUR_GAP_FRAMES, SEQUENCE_KINDS, areTemporalNeighbours, frameSequence, type FrameSequence } from '../../../src/domain/synthetic/sequence-kinds.ts';

const CASES: readonly [EvaluationCaseType, number][] = [
  ['cardiac-motion', TUNING_SEEDS[0]!],
  ['coronary-20mhz', EVALUATION_SEEDS[0]!],
  ['mixed-20mhz', TUNING_SEEDS[2]!],
];

function frameIndices(sequence: FrameSequence): number[] {
  return sequence.frames.map((frame) => frame.frameIndex);
}

describe('sequence kinds', () => {
  it.each(CASES)('consecutive (%s, seed %i) is the case run itself, every pair neighbours', (type, seed) => {
    const evaluation = evaluationCase(type, seed);
    const sequence = frameSequence(evaluation, 'consecutive');
    expect(frameIndices(sequence)).toEqual(evaluation.frames.map((frame) => frame.frameIndex));
    expect(sequence.frames.map((frame) => frame.truth)).toEqual(evaluation.frames.map((frame) => frame.truth));
    expect(sequence.neighbours.every(Boolean)).toBe(true);
  });

  it.each(CASES)('gated (%s, seed %i): neighbours a heartbeat apart in the truth phase and about 0.5 mm along the vessel', (type, seed) => {
    const evaluation = evaluationCase(type, seed);
    const sequence = frameSequence(evaluation, 'gated', { length: 12 });
    const heartRateHz = evaluation.model.hardCases?.cardiac?.heartRateHz ?? 1;
    const { frameRateHz, pullbackSpeedMmPerS } = evaluation.model;
    expect(sequence.frames).toHaveLength(12);
    for (let k = 1; k < sequence.frames.length; k++) {
      const a = sequence.frames[k - 1]!;
      const b = sequence.frames[k]!;
      // One beat apart in the heart's cycle, give or take the trigger's jitter.
      expect(b.cardiacCycles - a.cardiacCycles).toBeGreaterThan(1 - 2 * GATING_JITTER - 0.05);
      expect(b.cardiacCycles - a.cardiacCycles).toBeLessThan(1 + 2 * GATING_JITTER + 0.05);
      expect(b.frameIndex - a.frameIndex).toBeGreaterThan((0.8 * frameRateHz) / heartRateHz);
      // The frame's truth position moves by a heartbeat's worth of pullback (heart motion aside).
      const nominalMm = ((b.frameIndex - a.frameIndex) / frameRateHz) * pullbackSpeedMmPerS;
      expect(Math.abs(b.positionMm - a.positionMm - nominalMm)).toBeLessThan(evaluation.model.hardCases?.cardiac ? 1.01 : 1e-9);
      expect(nominalMm).toBeGreaterThan(0.3);
      expect(nominalMm).toBeLessThan(0.65);
      expect(sequence.neighbours[k - 1]).toBe(false);
    }
    // Every gated frame sits near an R wave (phase 0 of the cycle), the phases differing a little.
    const phases = sequence.frames.map((frame) => frame.cardiacCycles - Math.round(frame.cardiacCycles));
    for (const phase of phases) expect(Math.abs(phase)).toBeLessThanOrEqual(GATING_JITTER + (0.5 * heartRateHz) / frameRateHz + 1e-9);
    expect(new Set(phases.map((phase) => phase.toFixed(4))).size).toBeGreaterThan(1);
  });

  it.each(CASES)('shuffled (%s, seed %i) is a permutation of the consecutive run, not the run itself', (type, seed) => {
    const evaluation = evaluationCase(type, seed);
    const consecutive = frameIndices(frameSequence(evaluation, 'consecutive'));
    const shuffled = frameSequence(evaluation, 'shuffled');
    const indices = frameIndices(shuffled);
    expect([...indices].sort((a, b) => a - b)).toEqual(consecutive);
    expect(indices).not.toEqual(consecutive);
    shuffled.neighbours.forEach((neighbours, k) => expect(neighbours).toBe(Math.abs(indices[k + 1]! - indices[k]!) <= MAX_NEIGHBOUR_GAP_FRAMES));
  });

  it.each(CASES)('dropped (%s, seed %i) runs forward with gaps, at least one too wide for the temporal cue', (type, seed) => {
    const evaluation = evaluationCase(type, seed);
    const sequence = frameSequence(evaluation, 'dropped');
    const indices = frameIndices(sequence);
    const steps = indices.slice(1).map((index, k) => index - indices[k]!);
    expect(steps.every((step) => step >= 1)).toBe(true);
    expect(steps.some((step) => step > 1)).toBe(true);
    expect(steps.some((step) => step > MAX_NEIGHBOUR_GAP_FRAMES)).toBe(true);
    expect(sequence.neighbours).toEqual(steps.map((step) => step <= MAX_NEIGHBOUR_GAP_FRAMES));
  });

  it.each(CASES)('stitched (%s, seed %i): two runs, one jump, another anatomy after it', (type, seed) => {
    const evaluation = evaluationCase(type, seed);
    const sequence = frameSequence(evaluation, 'stitched');
    const runs = sequence.frames.map((frame) => frame.run);
    const jumps = runs.slice(1).filter((run, k) => run !== runs[k]).length;
    expect(jumps).toBe(1);
    expect(runs[0]).toBe(0);
    expect(runs.at(-1)).toBe(1);
    expect(sequence.neighbours.filter((neighbours) => !neighbours)).toHaveLength(1);
    const jump = runs.indexOf(1);
    expect(sequence.neighbours[jump - 1]).toBe(false);
    // Within each run the frames follow one another.
    for (let k = 1; k < sequence.frames.length; k++) {
      if (k !== jump) expect(sequence.frames[k]!.frameIndex - sequence.frames[k - 1]!.frameIndex).toBe(1);
    }
    // The second run is another pullback: its truth is not the first model's at that frame.
    const after = sequence.frames[jump]!;
    expect(after.truth).not.toEqual(truthContours(evaluation.model, after.frameIndex));
  });

  it('gives each frame the truth of the frame it renders, whatever the kind', () => {
    const evaluation = evaluationCase('coronary-20mhz', TUNING_SEEDS[1]!);
    for (const kind of SEQUENCE_KINDS) {
      const sequence = frameSequence(evaluation, kind, { length: 6 });
      sequence.frames.forEach((frame) => {
        if (frame.run === 0) {
          expect(frame.truth).toEqual(truthContours(evaluation.model, frame.frameIndex));
          expect(frame.positionMm).toBe(crossSectionAt(evaluation.model, frame.frameIndex).zMm);
        }
      });
      // Rendering follows the frames: frame k of the sequence is the case's frame with that index.
      const k = sequence.frames.findIndex((frame) => frame.run === 0 && frame.frameIndex === evaluation.frames[0]!.frameIndex);
      if (k >= 0) expect(sequence.render(k)).toEqual(evaluation.render(0));
    }
  });

  it('is the same for the same case, and the neighbour relation is symmetric', () => {
    const evaluation = evaluationCase('nurd', EVALUATION_SEEDS[1]!);
    for (const kind of SEQUENCE_KINDS) {
      const a = frameSequence(evaluation, kind);
      const b = frameSequence(evaluationCase('nurd', EVALUATION_SEEDS[1]!), kind);
      expect(frameIndices(a)).toEqual(frameIndices(b));
      for (const x of a.frames) for (const y of a.frames) expect(areTemporalNeighbours(x, y)).toBe(areTemporalNeighbours(y, x));
    }
    expect(() => frameSequence(evaluation, 'gated', { length: 1 })).toThrow(RangeError);
  });
});
