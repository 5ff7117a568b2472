import { useEffect, useMemo, useSyncExternalStore } from 'react';
import type { CorrectedAnalysis, PullbackGeometry } from '../../../domain/contours/corrected-analysis.ts';
import { gatedAnalysis } from '../../../domain/gating/gated-analysis.ts';
import { GatingStore, type GatingFrameSource } from './gating-store.ts';

/**
 * The record's gating (one store per frame store and frame rate, disposed with it) and, while it is
 * on and found cycles, the gated frames and the analysis computed on them; otherwise the analysis of
 * all frames as it came.
 */
export function useGating(
  lmode: { store: GatingFrameSource; geometry: PullbackGeometry } | null | undefined,
  result: CorrectedAnalysis | null,
): { gating: GatingStore | null; gatedFrames: readonly number[] | null; result: CorrectedAnalysis | null } {
  const store = lmode?.store ?? null;
  const frameRateHz = lmode?.geometry.frameRateHz ?? 0;
  const pullbackSpeedMmPerS = lmode?.geometry.pullbackSpeedMmPerS ?? 0;
  const gating = useMemo(() => (store && frameRateHz > 0 ? new GatingStore(store, frameRateHz) : null), [store, frameRateHz]);
  useEffect(() => () => gating?.dispose(), [gating]);
  const snapshot = useSyncExternalStore(gating?.subscribe ?? NO_SUBSCRIBE, () => gating?.getSnapshot() ?? null);
  const gatedFrames = snapshot?.on && snapshot.result?.kind === 'gated' ? snapshot.result.endDiastolicFrames : null;
  const shown = useMemo(
    () => (result && gatedFrames ? gatedAnalysis(result, gatedFrames, { frameRateHz, pullbackSpeedMmPerS }) : result),
    [result, gatedFrames, frameRateHz, pullbackSpeedMmPerS],
  );
  return { gating, gatedFrames, result: shown };
}

const NO_SUBSCRIBE = () => () => {};
