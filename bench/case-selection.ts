/**
 * The cases a detector bench runs on, from its command line: `--tuning` for TUNING_SEEDS (what the
 * detector's thresholds may be fitted on) instead of EVALUATION_SEEDS, `--types a,b` for some case
 * types only.
 */
import { EVALUATION_CASE_TYPES, EVALUATION_SEEDS, TUNING_SEEDS, type EvaluationCaseType } from '../src/domain/synthetic/evaluation-cases.ts';

export function caseSelection(args: readonly string[]): { tuning: boolean; types: EvaluationCaseType[]; seeds: readonly number[]; label: string } {
  const tuning = args.includes('--tuning');
  const typesAt = args.indexOf('--types');
  const types = (typesAt >= 0 ? (args[typesAt + 1] ?? '').split(',') : [...EVALUATION_CASE_TYPES]) as EvaluationCaseType[];
  for (const type of types) if (!EVALUATION_CASE_TYPES.includes(type)) throw new Error(`unknown case type ${type}; known: ${EVALUATION_CASE_TYPES.join(', ')}`);
  const seedsAt = args.indexOf('--seeds');
  if (seedsAt < 0) return { tuning, types, seeds: tuning ? TUNING_SEEDS : EVALUATION_SEEDS, label: tuning ? 'TUNING_SEEDS' : 'EVALUATION_SEEDS' };
  if (tuning) throw new Error('--seeds and --tuning exclude each other');
  const seeds = (args[seedsAt + 1] ?? '').split(',').map((text) => Number(text));
  for (const seed of seeds) if (!Number.isInteger(seed) || seed <= 0) throw new Error(`--seeds takes positive integers separated by commas, got ${args[seedsAt + 1] ?? 'nothing'}`);
  return { tuning, types, seeds, label: 'HOLDOUT seeds' };
}
