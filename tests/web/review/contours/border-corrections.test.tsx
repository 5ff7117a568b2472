/**
 * Issue 25: a border corrected on the cross-section is a key frame. It is carried onto the
 * neighbouring slices, undo takes it (and all it carried) away, and the analysis is not measured
 * again when only an annotation changes (a second per change on a 3,600-frame pullback).
 */
import { act, renderHook } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { commitBorderCorrection } from '../../../../src/web/review/manifest/border-corrections.ts';
import { useCorrectedAnalysis } from '../../../../src/web/review/contours/pullback-analysis.tsx';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { circle, detectedContours } from './contours-fixture.ts';

// 60 frames per mm: the default 2 mm reach covers 120 frames each way.
const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
const state = { status: 'ready' as const, contours: detectedContours(400) };

function loadedStore() {
  const store = new AnnotationStore();
  store.load({ version: 1, manifest: emptyManifest(), savedBy: null, savedAt: null });
  return store;
}

describe('a border corrected on the cross-section', () => {
  it('becomes a key frame that carries the correction to the neighbouring slices, and undo removes it', () => {
    const store = loadedStore();
    const { result } = renderHook(() => useCorrectedAnalysis(state, store, geometry));
    const before = result.current!.slices[210]!.areaMm2!;
    act(() => commitBorderCorrection(store, 200, circle(130), 'lumen'));
    expect(store.getSnapshot().manifest.contours).toEqual([expect.objectContaining({ slice: 200, border: 'lumen', source: 'manual', reachMm: 2 })]);
    const corrected = result.current!;
    expect(corrected.slices[199]!.source).toBe('manual');
    // Ten slices on, the border is still pulled out toward the correction; beyond the reach it is the detector's again.
    expect(corrected.slices[210]!.source).toBe('propagated');
    expect(corrected.slices[210]!.areaMm2!).toBeGreaterThan(before + 1);
    expect(corrected.slices[399]!.source).toBe('auto');
    expect(corrected.propagatedCount).toBeGreaterThan(100);

    act(() => store.undo());
    expect(store.getSnapshot().manifest.contours ?? []).toEqual([]);
    expect(result.current!.slices[210]!.source).toBe('auto');
    expect(result.current!.slices[210]!.areaMm2).toBe(before);
    expect(result.current!.propagatedCount).toBe(0);
  });

  it('keeps the measured analysis while only annotations change (a ruler drawn or dragged)', () => {
    const store = loadedStore();
    act(() => commitBorderCorrection(store, 200, circle(130), 'lumen'));
    const { result } = renderHook(() => useCorrectedAnalysis(state, store, geometry));
    const measured = result.current;
    const ruler = newRuler(store.getSnapshot().manifest, 5, { x: 0, y: 0 }, { x: 10, y: 0 });
    act(() => store.add(ruler));
    act(() => store.preview({ ...ruler, endX: 40 }));
    act(() => store.cancelPreview());
    expect(result.current).toBe(measured);
    act(() => commitBorderCorrection(store, 300, circle(80), 'lumen'));
    expect(result.current).not.toBe(measured);
  });
});
