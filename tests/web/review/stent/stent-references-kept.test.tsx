/**
 * Issue 28: a stent reference moved by hand is kept in the annotation manifest (`stentReferences`):
 * Save and the browser's draft keep it, a reload (a store loaded with the saved manifest) shows it
 * where the clinician left it, and undo puts it back as any other hand edit.
 */
import 'fake-indexeddb/auto';
import { act, fireEvent, screen } from '@testing-library/react';
import { useMemo } from 'react';
import { describe, expect, it } from 'vitest';
import { emptyManifest, parseManifest, type AnnotationManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { detectStent, type BorderAreas } from '../../../../src/domain/stent/stent-analysis.ts';
import { stentResults } from '../../../../src/domain/stent/stent-results.ts';
import { createDraftStore } from '../../../../src/web/review/annotations/draft-store.ts';
import { PullbackPlot } from '../../../../src/web/review/contours/pullback-plot.tsx';
import { stentMarkers } from '../../../../src/web/review/contours/stent-markers.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { StentResultsBlock } from '../../../../src/web/review/stent/stent-results-block.tsx';
import { useStentReferences } from '../../../../src/web/review/stent/use-stent-references.ts';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { detectedContours } from '../contours/contours-fixture.ts';
import { nativeReading, stentReading } from '../../../domain/stent/stent-fixtures.ts';

/** 60 frames at 10 frames/mm: a stent on frames 20-39, the lumen growing away from it on both sides. */
const readings = Array.from({ length: 60 }, (_, f) => (f >= 20 && f < 40 ? stentReading(f >= 28 && f <= 32 ? 1.3 : 1.6, undefined, 0.2 * f) : nativeReading(1.7)));
const detection = detectStent(readings, 10);
const lumen = readings.map((_, f) => (f < 20 ? 6 + 0.2 * (20 - f) : f >= 40 ? 6 + 0.2 * (f - 39) : 8));
const areas: BorderAreas = { frameCount: 60, framesPerMm: 10, lumenAreasMm2: lumen, vesselAreasMm2: lumen.map((a) => 2 * a), referenceFrames: { distal: 15, proximal: 45 } };
const plotResult = correctedAnalysis(detectedContours(60), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });

function Review({ store }: { store: AnnotationStore }) {
  const cursor = useMemo(() => new SliceCursor(imageStoreFor({ bmodeCount: 60 })), []);
  const { figures, moveReference, stepReference, resetReference } = useStentReferences(detection, areas, store);
  const results = useMemo(() => stentResults(detection), []);
  const stent = { results, figures: figures!, manualSlices: [], moveReference, stepReference, resetReference };
  return (
    <>
      <PullbackPlot result={plotResult} cursor={cursor} width={600} height={200} assumedNote={null} extraMarkers={stentMarkers(stent, 60)} />
      <StentResultsBlock results={results} figures={figures} cursor={cursor} manualSlices={[]} onResetReference={resetReference} />
    </>
  );
}

function loadedStore(manifest: AnnotationManifest): AnnotationStore {
  const store = new AnnotationStore();
  store.load({ version: 1, manifest, savedBy: null, savedAt: null });
  return store;
}

const marker = (side: 'distal' | 'proximal') => screen.getByTestId(`stent-${side}-reference-marker`);
const present = (store: AnnotationStore) => store.getSnapshot().history.present;

describe('the stent references moved by hand, kept with the annotations', () => {
  it('writes a moved reference into the manifest as a 1-based slice, valid for Save, and undo puts it back', () => {
    const store = loadedStore(emptyManifest());
    renderApp(<Review store={store} />);
    fireEvent.keyDown(marker('distal'), { key: 'ArrowLeft', shiftKey: true });
    expect(marker('distal').getAttribute('aria-valuenow')).toBe('6');
    expect(present(store).stentReferences).toEqual({ distal: 6 });
    expect(parseManifest(present(store)).ok).toBe(true);
    act(() => store.undo());
    expect(present(store).stentReferences).toBeUndefined();
    expect(marker('distal').getAttribute('aria-valuenow')).toBe('16');
    act(() => store.redo());
    expect(marker('distal').getAttribute('aria-valuenow')).toBe('6');
    // Put back by hand: the field goes, so the manifest reads as one never moved.
    fireEvent.click(screen.getByTestId('stent-reset-distal-reference'));
    expect(present(store).stentReferences).toBeUndefined();
  });

  it('shows the references where a saved manifest (a reload) left them, named as moved by hand', () => {
    renderApp(<Review store={loadedStore({ ...emptyManifest(), stentReferences: { distal: 6, proximal: 55 } })} />);
    expect(marker('distal').getAttribute('aria-valuenow')).toBe('6');
    expect(marker('proximal').getAttribute('aria-valuenow')).toBe('55');
    expect(screen.getByTestId('stent-expansion').textContent).toContain('distal reference moved by hand to slice 6');
    expect(screen.getByTestId('stent-expansion').textContent).toContain('proximal reference moved by hand to slice 55');
  });

  it('keeps an unsaved move in the browser’s draft across a reload', async () => {
    const store = loadedStore(emptyManifest());
    renderApp(<Review store={store} />);
    fireEvent.keyDown(marker('proximal'), { key: 'ArrowRight', shiftKey: true });
    const now = Date.UTC(2026, 10, 26, 12, 0, 0);
    const drafts = createDraftStore({ name: 'stent-references-draft-test', now: () => now });
    const owner = { issuer: 'http://demo.localhost/idp', subject: 'dana' };
    await drafts.saveDraft(owner, { recordId: 'r1', patientId: 'P-7', baseVersion: 1, manifest: present(store), updatedAt: now - 1000 });
    await drafts.settled();
    expect((await drafts.loadDraft(owner, 'r1'))?.manifest.stentReferences).toEqual({ proximal: 56 });
  });
});
