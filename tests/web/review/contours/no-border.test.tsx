/**
 * Issue 23 in the review: a slice the detector could not read shows "No border" instead of a
 * contour, the clinician can still draw one by hand, and the pullback plot leaves a gap there.
 */
import { fireEvent, screen } from '@testing-library/react';
import { useState, useSyncExternalStore } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { annotationToolMachine } from '../../../../src/web/review/tools/annotation-tool.machine.ts';
import { NO_BORDER_TEXT } from '../../../../src/web/review/contours/frame-readout.tsx';
import { ContourLayer } from '../../../../src/web/review/contours/contour-layer.tsx';
import { PullbackPlot } from '../../../../src/web/review/contours/pullback-plot.tsx';
import { SlicesToCheck } from '../../../../src/web/review/contours/slices-to-check.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { detectedContours } from './contours-fixture.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

const contours = detectedContours(10, {}, [4]);

/** The layer as the review mounts it: measured again from the store's manifest whenever a correction is stored. */
function LiveLayer({ store, slice }: { store: AnnotationStore; slice: number }) {
  const manifest = useSyncExternalStore(store.subscribe, () => store.getSnapshot().manifest);
  const [tool] = useState(() => createActor(annotationToolMachine, { input: { store, slice: () => slice } }).start());
  return (
    <ContourLayer
      measurement={correctedAnalysis(contours, manifest, geometry).slices[slice - 1]!}
      pending={null}
      slice={slice}
      store={store}
      tool={tool}
      onPointDown={vi.fn()}
      transform={{ scaleX: 1, scaleY: 1, x: 0, y: 0 }}
      pixelSpacingMm={0.01}
      frameSize={{ width: 500, height: 400 }}
    />
  );
}

function renderLayer(slice: number) {
  const store = new AnnotationStore();
  store.load({ version: 1, manifest: emptyManifest(), savedBy: null, savedAt: null });
  renderApp(<LiveLayer store={store} slice={slice} />);
  return { store };
}

describe('a slice the detector could not read, in the cross-section', () => {
  it('says "No border" and draws no contour, where a readable slice draws both', () => {
    renderLayer(4);
    expect(screen.getByTestId('no-border').textContent).toBe('No border — the detector could not read this frame');
    expect(NO_BORDER_TEXT).toBe('No border — the detector could not read this frame');
    expect(screen.queryByTestId('lumen-contour')).toBeNull();
    expect(screen.queryByTestId('vessel-contour')).toBeNull();
    expect(screen.queryAllByTestId('contour-point')).toHaveLength(0);
    // No figure at all, not a 0.
    expect(screen.queryByTestId('contour-area')).toBeNull();
    expect(screen.queryByTestId('plaque-burden')).toBeNull();
    expect(screen.getByTestId('contour-layer').dataset.noBorder).toBe('true');
  });

  it('lets the clinician place a lumen and a vessel to correct by hand, which then count as manual borders', () => {
    const { store } = renderLayer(4);
    fireEvent.click(screen.getByRole('button', { name: 'Draw lumen' }));
    const [lumen] = store.getSnapshot().history.present.contours ?? [];
    expect(lumen).toMatchObject({ slice: 4, border: 'lumen', source: 'manual' });
    // A 1.5 mm circle round the frame's centre (250, 200) at 0.01 mm/px.
    expect(lumen!.controlPoints[0]!.x).toBeCloseTo(400, 6);
    expect(lumen!.controlPoints[0]!.y).toBeCloseTo(200, 6);
    expect(screen.getByTestId('lumen-contour')).toBeTruthy();
    expect(screen.getAllByTestId('contour-point')).toHaveLength(8);
    expect(Number(screen.getByTestId('contour-area').textContent)).toBeGreaterThan(6.5);
    expect(screen.getByTestId('contour-layer').dataset.source).toBe('manual');
    // The vessel goes round the drawn lumen; then the slice has its plaque figure.
    fireEvent.click(screen.getByRole('button', { name: 'Draw vessel' }));
    expect(screen.getByTestId('vessel-contour')).toBeTruthy();
    expect(screen.getByTestId('plaque-burden').textContent).toMatch(/^\d+$/);
    // The readout has figures again, and the card still says what the detector did.
    expect(screen.queryByTestId('no-border')).toBeNull();
    expect(screen.getByTestId('no-border-drawn').textContent).toBe('Not read by the detector: drawn by hand');
  });

  it('keeps the ordinary card on a readable slice', () => {
    renderLayer(3);
    expect(screen.queryByTestId('no-border')).toBeNull();
    expect(screen.getByTestId('lumen-contour')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Draw lumen' })).toBeNull();
  });
});

describe('slices the detector could not read, along the pullback', () => {
  function renderPlot(unreadable: number[]) {
    const result = correctedAnalysis(detectedContours(60, { 40: 0.3 }, unreadable), emptyManifest(), geometry);
    renderApp(<PullbackPlot result={result} cursor={imageStoreFor({ bmodeCount: 60 })} width={600} height={200} assumedNote={null} />);
    return result;
  }
  /** The x of each point of an SVG path, by run: a run starts at each M. */
  const runsOf = (d: string) =>
    d
      .split('M')
      .filter(Boolean)
      .map((run) => run.split('L').map((point) => Number(point.split(',')[0])));

  it('leaves a gap in the lumen-area and plaque-burden curves there, and shades them', () => {
    renderPlot([20, 21, 22]);
    const plot = screen.getByTestId('pullback-plot');
    const left = Number(plot.dataset.plotLeft);
    const width = Number(plot.dataset.plotWidth);
    const x = (slice: number) => left + ((slice - 1) / 59) * width;
    for (const testId of ['lumen-area-curve', 'plaque-burden-curve']) {
      const runs = runsOf(screen.getByTestId(testId).getAttribute('d')!);
      // Two runs: slices 1–19 and 23–60; no point, and no line, over slices 20–22.
      expect(runs.map((run) => run.length)).toEqual([19, 38]);
      expect(runs[0]!.at(-1)).toBeCloseTo(x(19), 0);
      expect(runs[1]![0]).toBeCloseTo(x(23), 0);
    }
    const marks = screen.getByTestId('no-border-marks');
    expect(marks.dataset.count).toBe('3');
    expect([...marks.querySelectorAll('rect')].map((rect) => [rect.dataset.first, rect.dataset.last])).toEqual([['20', '22']]);
    expect(screen.getByTestId('no-border-count').textContent).toBe('3 slices without a border');
    // The MLA is on a slice with a border.
    expect([20, 21, 22]).not.toContain(Number(screen.getByTestId('mla-flag').dataset.slice));
  });

  it('says there is no MLA when no slice has a border', () => {
    renderPlot(Array.from({ length: 60 }, (_, i) => i + 1));
    expect(screen.getByTestId('mla-summary').textContent).toContain('MLA — no slice has a lumen border');
    expect(screen.queryByTestId('mla-flag')).toBeNull();
    expect(screen.getByTestId('lumen-area-curve').getAttribute('d')).toBe('');
    expect(screen.getByTestId('max-plaque-burden').textContent).toBe('Max plaque burden —');
  });

  it('names them "no border" among the slices to check', () => {
    const store = imageStoreFor({ bmodeCount: 100 });
    renderApp(<SlicesToCheck slices={[12, 40, 41]} noBorder={[40, 41]} source={store} />);
    expect(screen.getByTestId('slices-to-check').textContent).toContain('3 slices to check, 2 with no border');
    fireEvent.click(screen.getByRole('button', { name: 'Next low-confidence slice' }));
    expect(screen.getByTestId('slices-to-check').textContent).toContain('(1 of 3)');
    fireEvent.click(screen.getByRole('button', { name: 'Next low-confidence slice' }));
    expect(screen.getByTestId('slices-to-check').textContent).toContain('(2 of 3: no border)');
  });
});
