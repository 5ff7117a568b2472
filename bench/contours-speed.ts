/**
 * `npm run -s bench:contours -- --speed-only`: the border detector's speed alone (issue 23: a
 * 3,600-frame pullback's borders in ≤ 15 s on 2 cores, 120 frames/s per core), per case type, without
 * the scoring. Each case's run of frames is rendered first (not timed), then detected as the CLI and
 * the server do (in order, each frame given the previous one, through detectInSequence: its second
 * opinions are counted in), `repeat` times over with a fresh
 * detector each time. Speed is frames per CPU second of this thread (process.cpuUsage), so other
 * work on the machine slows it less than wall time would; the wall figure is printed beside it.
 */
import { detectInSequence } from '../src/domain/contours/detect-sequence.ts';
import { createBorderDetector } from '../src/domain/contours/border-detector.ts';
import type { BorderDetection } from '../src/domain/contours/border-detection.ts';
import { evaluationCase, type EvaluationCaseType } from '../src/domain/synthetic/evaluation-cases.ts';
import { renderRun } from './contours-scoring.ts';

export function speedTable(types: readonly EvaluationCaseType[], seeds: readonly number[], repeat: number): void {
  console.info(`detection speed: ${types.length} case types x ${seeds.length} seeds (${seeds.join(', ')}), each run detected ${repeat} times, one thread`);
  console.info(`${'case type'.padEnd(20)}${'frames'.padStart(8)}${'frames/s per core'.padStart(19)}${'frames/s wall'.padStart(15)}`);
  let allFrames = 0;
  let allCpu = 0;
  let allWall = 0;
  for (const type of types) {
    const runs = seeds.map((seed) => {
      const evaluation = evaluationCase(type, seed);
      return { evaluation, frames: renderRun(evaluation).frames };
    });
    let frames = 0;
    let cpuSeconds = 0;
    let wallSeconds = 0;
    for (let r = 0; r < repeat; r++) {
      for (const { evaluation, frames: pixels } of runs) {
        const centre = evaluation.frames[0]!.catheterCentre;
        const detector = createBorderDetector({ frameWidth: evaluation.frameWidth, frameHeight: evaluation.frameHeight, pixelSpacingMm: evaluation.pixelSpacingMm, centreX: centre.x, centreY: centre.y });
        const started = performance.now();
        const cpuStarted = process.cpuUsage();
        let previous: BorderDetection | null = null;
        pixels.forEach((frame, k) => {
          previous = detectInSequence(detector, frame, previous, k === 0 ? (pixels[1] ?? null) : pixels[k - 1]!, evaluation.pixelSpacingMm);
        });
        const cpu = process.cpuUsage(cpuStarted);
        cpuSeconds += (cpu.user + cpu.system) / 1e6;
        wallSeconds += (performance.now() - started) / 1000;
        frames += pixels.length;
      }
    }
    console.info(`${type.padEnd(20)}${String(frames).padStart(8)}${(frames / cpuSeconds).toFixed(1).padStart(19)}${(frames / wallSeconds).toFixed(1).padStart(15)}`);
    allFrames += frames;
    allCpu += cpuSeconds;
    allWall += wallSeconds;
  }
  console.info(`${'overall'.padEnd(20)}${String(allFrames).padStart(8)}${(allFrames / allCpu).toFixed(1).padStart(19)}${(allFrames / allWall).toFixed(1).padStart(15)}`);
}
