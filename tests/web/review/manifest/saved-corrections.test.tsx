/**
 * The figures that saved corrections change wait for them (manifest/saved-corrections.ts): while the
 * saved annotations load, and after they fail to load, no MLA, reference, plot figure or export is
 * made from the uncorrected borders; once they are in, the corrected figures show, and a draft is
 * still restored on top of them.
 */
import { act, renderHook, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { setKeyFrame } from '../../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { lesionResults } from '../../../../src/domain/contours/lesion-results.ts';
import { PullbackAnalysis, useCorrectedAnalysis } from '../../../../src/web/review/contours/pullback-analysis.tsx';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { CORRECTIONS_FAILED_TEXT, CORRECTIONS_LOADING_TEXT, correctionsGate, heldFiguresText } from '../../../../src/web/review/manifest/saved-corrections.ts';
import { SendToPacsButton } from '../../../../src/web/review/pacs/send-to-pacs-button.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { circle, detectedContours } from '../contours/contours-fixture.ts';

const COUNT = 120;
const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
const contours = detectedContours(COUNT);
const state = { status: 'ready' as const, contours };
const uncorrected = lesionResults(correctedAnalysis(contours, emptyManifest(), geometry)).mla!;
/** The saved review: the MLA frame's lumen corrected by hand, much wider (a key frame carried 2 mm each way). */
const savedManifest = setKeyFrame(emptyManifest(), uncorrected.slice, circle(160), 'lumen', 2);
const corrected = lesionResults(correctedAnalysis(contours, savedManifest, geometry)).mla!;
const SAVED = { version: 3, manifest: savedManifest, savedBy: 'dana@demo.test', savedAt: '2026-11-01T10:00:00.000Z' };

describe('the gate on the saved corrections', () => {
  it('is closed while loading and after a failed load, open once a version (or none) is loaded', () => {
    const store = new AnnotationStore();
    expect(heldFiguresText(correctionsGate(store.getSnapshot()))).toBe(CORRECTIONS_LOADING_TEXT);
    store.fail('503 Service Unavailable');
    expect(correctionsGate(store.getSnapshot())).toEqual({ status: 'failed', error: '503 Service Unavailable' });
    expect(heldFiguresText(correctionsGate(store.getSnapshot()))).toBe(CORRECTIONS_FAILED_TEXT);
    // Retry: loading again, still held.
    store.retryLoad();
    expect(heldFiguresText(correctionsGate(store.getSnapshot()))).toBe(CORRECTIONS_LOADING_TEXT);
    store.load({ version: 0, manifest: emptyManifest(), savedBy: null, savedAt: null });
    expect(heldFiguresText(correctionsGate(store.getSnapshot()))).toBeNull();
  });
});

describe('the corrected analysis', () => {
  it('the fixture: the saved correction moves the MLA', () => {
    expect(corrected.areaMm2).not.toBeCloseTo(uncorrected.areaMm2, 2);
  });

  it('is never made from the uncorrected borders while the saved corrections load, and is the corrected one once they are in', () => {
    const store = new AnnotationStore();
    const seen: (number | null)[] = [];
    const { result } = renderHook(() => {
      const analysis = useCorrectedAnalysis(state, store, geometry);
      seen.push(analysis ? lesionResults(analysis).mla!.areaMm2 : null);
      return analysis;
    });
    expect(result.current).toBeNull();
    act(() => store.load(SAVED));
    expect(lesionResults(result.current!).mla!.areaMm2).toBe(corrected.areaMm2);
    expect(seen).not.toContain(uncorrected.areaMm2);
    expect(seen.filter((area) => area !== null).every((area) => area === corrected.areaMm2)).toBe(true);
  });

  it('stays held back after a failed load, and is the corrected one after a Retry that succeeds', () => {
    const store = new AnnotationStore();
    const { result } = renderHook(() => useCorrectedAnalysis(state, store, geometry));
    act(() => store.fail('Network error'));
    expect(result.current).toBeNull();
    act(() => store.retryLoad());
    expect(result.current).toBeNull();
    act(() => store.load(SAVED));
    expect(lesionResults(result.current!).mla!.areaMm2).toBe(corrected.areaMm2);
  });

  it('takes a restored draft on top of the saved corrections', () => {
    const store = new AnnotationStore();
    const { result } = renderHook(() => useCorrectedAnalysis(state, store, geometry));
    act(() => store.load(SAVED));
    // The draft keeps the saved key frame and adds one far from it.
    const far = uncorrected.slice > COUNT / 2 ? 10 : COUNT - 10;
    act(() => store.restoreDraft(setKeyFrame(savedManifest, far, circle(40), 'lumen', 0), SAVED.version));
    const slices = result.current!.slices;
    expect(slices[uncorrected.slice - 1]!.source).toBe('manual');
    expect(slices[far - 1]!.source).toBe('manual');
  });
});

function Review({ store, onRetry }: { store: AnnotationStore; onRetry?: () => void }) {
  const result = useCorrectedAnalysis(state, store, geometry);
  const cursor = new SliceCursor(imageStoreFor({ bmodeCount: COUNT }));
  return <PullbackAnalysis state={state} result={result} cursor={cursor} annotations={store} report={null} onRetryCorrections={onRetry} />;
}

describe('the pullback analysis while the saved corrections are not in', () => {
  it('says "Loading saved corrections…" in place of the figures, offers no export, then shows the corrected MLA', () => {
    const store = new AnnotationStore();
    renderApp(<Review store={store} />);
    expect(screen.getByTestId('results-held').textContent).toBe(CORRECTIONS_LOADING_TEXT);
    expect(screen.getByTestId('corrections-status').textContent).toBe(CORRECTIONS_LOADING_TEXT);
    expect(screen.getByTestId('result-mla-figures-value').textContent).toBe('—');
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'PDF report' })).toBeNull();
    act(() => store.load(SAVED));
    expect(screen.queryByTestId('results-held')).toBeNull();
    expect(screen.queryByTestId('corrections-status')).toBeNull();
    expect(screen.getByTestId('result-mla-figures-value').textContent).toBe(`${corrected.areaMm2.toFixed(2)} mm²`);
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeTruthy();
  });

  it('says the figures are held back when the corrections could not be loaded, with a Retry', async () => {
    const store = new AnnotationStore();
    const retry = vi.fn(() => store.retryLoad());
    renderApp(<Review store={store} onRetry={retry} />);
    act(() => store.fail('Network error'));
    expect(screen.getByRole('alert').textContent).toContain(CORRECTIONS_FAILED_TEXT);
    expect(screen.getByTestId('results-held').textContent).toBe(CORRECTIONS_FAILED_TEXT);
    expect(screen.getByTestId('result-mla-figures-value').textContent).toBe('—');
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Retry' }));
    expect(retry).toHaveBeenCalledTimes(1);
    expect(screen.getByTestId('results-held').textContent).toBe(CORRECTIONS_LOADING_TEXT);
  });
});

describe('Send to PACS while the saved corrections are not in', () => {
  it('does nothing and says why', async () => {
    const store = new AnnotationStore();
    renderApp(<SendToPacsButton recordId="r1" studyInstanceUid="1.2.840.1" annotations={store} heldReason={CORRECTIONS_LOADING_TEXT} />);
    const button = screen.getByRole('button', { name: 'Send to PACS' });
    expect(button.getAttribute('aria-disabled')).toBe('true');
    expect(button.getAttribute('aria-describedby')).toBeTruthy();
    expect(document.getElementById(button.getAttribute('aria-describedby')!)?.textContent).toBe(CORRECTIONS_LOADING_TEXT);
    await userEvent.setup().click(button);
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
