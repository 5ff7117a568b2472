import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { setManualContour } from '../../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest, type AnnotationManifest } from '../../../../src/domain/annotations/manifest.ts';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../../src/domain/constants.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { annotationToolMachine } from '../../../../src/web/review/tools/annotation-tool.machine.ts';
import { ContourLayer } from '../../../../src/web/review/contours/contour-layer.tsx';
import { renderApp } from '../../render.tsx';
import { circle, detectedContours } from './contours-fixture.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

function renderLayer(manifest: AnnotationManifest, slice: number) {
  const store = new AnnotationStore();
  store.load({ version: 1, manifest, savedBy: null, savedAt: null });
  const tool = createActor(annotationToolMachine, { input: { store, slice: () => slice } }).start();
  const onPointDown = vi.fn();
  const measurement = () => correctedAnalysis(detectedContours(10, { 4: 0.2 }), store.getSnapshot().history.present, geometry).slices[slice - 1]!;
  const view = renderApp(
    <ContourLayer
      measurement={measurement()}
      pending={null}
      slice={slice}
      store={store}
      tool={tool}
      onPointDown={onPointDown}
      transform={{ scaleX: 1, scaleY: 1, x: 0, y: 0 }}
      pixelSpacingMm={0.01}
      frameSize={{ width: 512, height: 512 }}
    />,
  );
  return { store, tool, onPointDown, measurement, view };
}

describe('the contour tool with two borders', () => {
  it('draws the lumen and the vessel in their colours, each with its control points', () => {
    renderLayer(emptyManifest(), 2);
    expect(screen.getByTestId('lumen-contour').getAttribute('stroke')).toBe(CONTOUR_COLOR);
    expect(screen.getByTestId('vessel-contour').getAttribute('stroke')).toBe(VESSEL_CONTOUR_COLOR);
    expect(screen.getAllByTestId('contour-point')).toHaveLength(16);
    expect(screen.getAllByTestId('vessel-point')).toHaveLength(16);
    expect(screen.getAllByTestId('vessel-point')[0]!.getAttribute('cx')).toBe('456');
  });

  it('hands a press on a vessel point to the tool as the vessel border', () => {
    const { onPointDown } = renderLayer(emptyManifest(), 2);
    fireEvent.pointerDown(screen.getAllByTestId('vessel-point')[4]!, { button: 0 });
    expect(onPointDown).toHaveBeenCalledWith('vessel', circle(200), 4, expect.anything());
    fireEvent.pointerDown(screen.getAllByTestId('contour-point')[2]!, { button: 0 });
    expect(onPointDown).toHaveBeenLastCalledWith('lumen', circle(100), 2, expect.anything());
  });

  it('shows both borders’ figures in the frame readout, where they came from in the card, and says a low confidence is one to check', () => {
    renderLayer(emptyManifest(), 4);
    const card = screen.getByTestId('contour-card');
    expect(card.textContent).toContain('Lumen');
    expect(screen.getByTestId('lumen-source').textContent).toBe('automatic');
    const readout = screen.getByTestId('frame-readout');
    expect(readout.dataset.slice).toBe('4');
    expect(screen.getByTestId('vessel-area').textContent).toBe('12.00');
    // The detector's diameters for the slice (contours-fixture.ts).
    expect(screen.getByTestId('min-diameter').textContent).toBe('2.00');
    expect(screen.getByTestId('max-diameter').textContent).toBe('3.00');
    expect(screen.getByTestId('plaque-burden').textContent).toMatch(/^\d+$/);
    expect(screen.getByTestId('contour-confidence').textContent).toBe('Confidence 0.20 · low: check this slice');
    expect(screen.queryByRole('button', { name: /Re-detect/ })).toBeNull();
  });

  it('follows a vessel point being dragged, and Re-detect vessel drops only the vessel correction', () => {
    const manifest = setManualContour(setManualContour(emptyManifest(), 2, circle(90)), 2, circle(220), 'vessel');
    const { store, tool } = renderLayer(manifest, 2);
    const layer = screen.getByTestId('contour-layer');
    expect(layer.dataset.source).toBe('manual');
    expect(layer.dataset.vesselSource).toBe('manual');
    const corrected = Number(screen.getByTestId('vessel-area').textContent);
    expect(corrected).toBeCloseTo(Math.PI * 2.2 ** 2, 1);

    // A drag past the threshold: the card shows the vessel under the pointer before anything is stored.
    act(() => {
      tool.send({ type: 'contour.down', slice: 2, border: 'vessel', controlPoints: circle(220), index: 0, point: { x: 476, y: 256 }, dragThreshold: 3 });
      tool.send({ type: 'pointer.move', point: { x: 520, y: 256 } });
    });
    expect(Number(screen.getByTestId('vessel-area').textContent)).toBeGreaterThan(corrected);
    act(() => tool.send({ type: 'key.escape' }));
    expect(Number(screen.getByTestId('vessel-area').textContent)).toBe(corrected);

    fireEvent.click(screen.getByRole('button', { name: 'Re-detect vessel' }));
    expect(store.getSnapshot().history.present.contours).toEqual([{ slice: 2, border: 'lumen', controlPoints: circle(90), source: 'manual' }]);
  });
});
