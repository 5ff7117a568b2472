/**
 * `npm run bench:gating`: image-based gating (issue 28) scored against the generator's known
 * cardiac phase. Each pullback (20 s at 30 frames/s, heartbeat.ts) is rendered, its inter-frame
 * motion signal taken from the pixels alone, and its end-diastolic frames detected; a cycle is hit
 * when a gated frame lies within ±1 frame of the true end-diastole (the last frame before the
 * contraction). Cycles within 0.2 s of either end of the pullback are not scored: no detector sees
 * a still stretch before the first frame or a stroke after the last.
 *
 * Printed per heart rate and difficulty, and in total against the issue's aim (≥ 95 % of cycles),
 * with the false gated frames (near no end-diastole) and the pullbacks answered "no cycle". Then
 * the answers where there is no cycle to find: a pullback without cardiac motion, and frames
 * already gated (one per beat).
 *
 *   --tuning   GATING_TUNING_SEEDS instead of GATING_EVALUATION_SEEDS
 */
import { detectEndDiastole, type GatingResult } from '../src/domain/gating/end-diastole.ts';
import { addScores, GATING_TOLERANCE_FRAMES, scoreGating, type GatingScore } from '../src/domain/gating/gating-score.ts';
import { motionSignal } from '../src/domain/gating/motion-signal.ts';
import { createBmodeRenderer } from '../src/domain/synthetic/bmode-frame.ts';
import {
  GATING_DIFFICULTIES,
  GATING_EVALUATION_SEEDS,
  GATING_FRAME_COUNT,
  GATING_FRAME_RATE_HZ,
  GATING_HEART_RATES_BPM,
  GATING_TUNING_SEEDS,
  gatingCase,
  type GatingCase,
} from '../src/domain/synthetic/gating-cases.ts';
import { createPullbackModel } from '../src/domain/synthetic/pullback-model.ts';

const AIM_HIT_RATE = 0.95;
const EDGE_FRAMES = Math.round(0.2 * GATING_FRAME_RATE_HZ);
const tuning = process.argv.includes('--tuning');
const seeds = tuning ? GATING_TUNING_SEEDS : GATING_EVALUATION_SEEDS;

const percent = (score: GatingScore): string => `${((100 * score.hits) / Math.max(1, score.cycles)).toFixed(1).padStart(5)} %`;
const line = (label: string, score: GatingScore, extra = ''): string =>
  `${label.padEnd(26)} ${percent(score)}  ${`${score.hits}/${score.cycles}`.padStart(9)} cycles  ${String(score.falseFrames).padStart(3)} false${extra}`;

function gate(pullback: GatingCase): { result: GatingResult; score: GatingScore } {
  const size = pullback.model.frameSizePx;
  const motion = motionSignal({ width: size, height: size, frameCount: pullback.model.frameCount, frame: pullback.render });
  const result = detectEndDiastole(motion, { frameRateHz: pullback.model.frameRateHz });
  const scored = pullback.endDiastolicFrames.filter((f) => f >= EDGE_FRAMES && f < pullback.model.frameCount - EDGE_FRAMES);
  return { result, score: scoreGating(scored, result.kind === 'gated' ? result.endDiastolicFrames : []) };
}

console.info(`Image-based gating on ${tuning ? 'TUNING' : 'EVALUATION'} seeds ${seeds.join(', ')}: ${GATING_FRAME_COUNT} frames at ${GATING_FRAME_RATE_HZ} frames/s each`);
console.info(`hit = a gated frame within ±${GATING_TOLERANCE_FRAMES} frame of the true end-diastole; cycles within ${EDGE_FRAMES} frames of an end not scored\n`);
const byRate = new Map<number, GatingScore[]>();
const byDifficulty = new Map<string, GatingScore[]>();
const noCycle: string[] = [];
const started = performance.now();
for (const bpm of GATING_HEART_RATES_BPM) {
  for (const difficulty of GATING_DIFFICULTIES) {
    const scores: GatingScore[] = [];
    for (const seed of seeds) {
      const pullback = gatingCase(seed, bpm, difficulty);
      const { result, score } = gate(pullback);
      if (result.kind === 'no-cycle') noCycle.push(`${bpm} bpm ${difficulty} seed ${seed}: ${result.reason}`);
      scores.push(score);
    }
    const total = addScores(scores);
    console.info(line(`${bpm} bpm, ${difficulty}`, total));
    byRate.set(bpm, [...(byRate.get(bpm) ?? []), total]);
    byDifficulty.set(difficulty, [...(byDifficulty.get(difficulty) ?? []), total]);
  }
}
console.info('');
for (const [bpm, scores] of byRate) console.info(line(`${bpm} bpm`, addScores(scores)));
for (const [difficulty, scores] of byDifficulty) console.info(line(difficulty, addScores(scores)));
const all = addScores([...byRate.values()].flat());
const met = all.hits / all.cycles >= AIM_HIT_RATE;
console.info(line('ALL', all, `   aim ≥ ${100 * AIM_HIT_RATE} %: ${met ? 'met' : 'NOT met'}`));
console.info(`pullbacks answered "no cycle": ${noCycle.length}${noCycle.map((n) => `\n  ${n}`).join('')}`);

// Where there is no cycle, the answer must be "no cycle", never frames.
console.info('\nNo cycle to find (the answer should be "no cycle"):');
for (const seed of seeds) {
  const model = createPullbackModel({ seed, frameCount: GATING_FRAME_COUNT, frameSizePx: 256, pixelSpacingMm: 0.025, look: '20mhz', hardCases: { cardiacMotion: 0 } });
  const renderer = createBmodeRenderer(model);
  const still = detectEndDiastole(motionSignal({ width: 256, height: 256, frameCount: model.frameCount, frame: (i) => renderer.renderFrame(i) }), { frameRateHz: GATING_FRAME_RATE_HZ });
  const beating = gatingCase(seed, 75, 'clean');
  const gatedFrames = beating.endDiastolicFrames;
  const alreadyGated = detectEndDiastole(
    motionSignal({ width: 256, height: 256, frameCount: gatedFrames.length, frame: (i) => beating.render(gatedFrames[i]!) }),
    { frameRateHz: GATING_FRAME_RATE_HZ },
  );
  const say = (r: GatingResult) => (r.kind === 'no-cycle' ? `no cycle (${r.reason})` : `GATED ${r.endDiastolicFrames.length} frames`);
  console.info(`  seed ${seed}: no cardiac motion → ${say(still)}; already gated → ${say(alreadyGated)}`);
}
console.info(`\n${((performance.now() - started) / 1000).toFixed(0)} s`);
