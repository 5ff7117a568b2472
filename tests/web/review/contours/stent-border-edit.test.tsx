/**
 * Issue 28: once the stent is read, the contour tool shows the slice's stent border with control
 * points beside the lumen and vessel, and the clinician corrects it the same way: a drag through
 * the tool statechart stores the slice's stent border as drawn (one undo step, in the annotations),
 * Escape while dragging stores nothing, the card says "corrected" with the drawn area and offers
 * Re-detect, and a stented slice without a fitted border offers Draw.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { emptyManifest, type AnnotationManifest } from '../../../../src/domain/annotations/manifest.ts';
import { setStentCorrection } from '../../../../src/domain/annotations/stent-corrections.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { annotationToolMachine } from '../../../../src/web/review/tools/annotation-tool.machine.ts';
import { ContourLayer } from '../../../../src/web/review/contours/contour-layer.tsx';
import { renderApp } from '../../render.tsx';
import { circle, detectedContours } from './contours-fixture.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
/** A fitted stent border of 1.4 mm round the catheter (harmonic coefficients, mm): 140 px at 0.01 mm a pixel. */
const FITTED = [1.4, 0, 0, 0, 0];

function renderLayer(manifest: AnnotationManifest, slice: number, stent: { read: boolean; border: readonly number[] | null }) {
  const store = new AnnotationStore();
  store.load({ version: 1, manifest, savedBy: null, savedAt: null });
  const tool = createActor(annotationToolMachine, { input: { store, slice: () => slice } }).start();
  const onPointDown = vi.fn();
  const measurement = correctedAnalysis(detectedContours(10), store.getSnapshot().history.present, geometry).slices[slice - 1]!;
  renderApp(
    <ContourLayer
      measurement={measurement}
      pending={null}
      slice={slice}
      store={store}
      tool={tool}
      onPointDown={onPointDown}
      transform={{ scaleX: 1, scaleY: 1, x: 0, y: 0 }}
      pixelSpacingMm={0.01}
      frameSize={{ width: 512, height: 512 }}
      stentRead={stent.read}
      stentBorder={stent.border}
    />,
  );
  return { store, tool, onPointDown };
}

describe('the stent border in the contour tool', () => {
  it('is not there before the stent is read', () => {
    renderLayer(emptyManifest(), 2, { read: false, border: null });
    expect(screen.queryAllByTestId('stent-point')).toHaveLength(0);
    expect(screen.queryByTestId('stent-card-line')).toBeNull();
  });

  it('shows the fitted border with control points to drag, and hands a press on one to the tool as the stent border', () => {
    const { onPointDown } = renderLayer(emptyManifest(), 2, { read: true, border: FITTED });
    const points = screen.getAllByTestId('stent-point');
    expect(points).toHaveLength(16);
    expect(Number(points[0]!.getAttribute('cx'))).toBeCloseTo(396, 6);
    expect(screen.getByTestId('stent-source').textContent).toBe('fitted');
    expect(Number.parseFloat(screen.getByTestId('stent-area').textContent!)).toBeCloseTo(Math.PI * 1.4 ** 2, 1);
    expect(screen.queryByRole('button', { name: 'Re-detect stent' })).toBeNull();
    fireEvent.pointerDown(points[4]!, { button: 0 });
    expect(onPointDown).toHaveBeenCalledWith('stent', expect.any(Array), 4, expect.anything());
    expect(onPointDown.mock.calls[0]![1]).toHaveLength(16);
  });

  it('stores a dragged stent border as the slice’s correction (one undo step), follows the pointer while dragging, and stores nothing on Escape', () => {
    const { store, tool } = renderLayer(emptyManifest(), 2, { read: true, border: FITTED });
    const points = screen.getAllByTestId('stent-point').map((c) => ({ x: Number(c.getAttribute('cx')), y: Number(c.getAttribute('cy')) }));
    const area = () => Number.parseFloat(screen.getByTestId('stent-area').textContent!);
    const fitted = area();
    act(() => {
      tool.send({ type: 'contour.down', slice: 2, border: 'stent', controlPoints: points, index: 0, point: points[0]!, dragThreshold: 3 });
      tool.send({ type: 'pointer.move', point: { x: 420, y: 256 } });
    });
    // Live: the card's area follows the point before anything is stored.
    expect(area()).toBeGreaterThan(fitted);
    act(() => tool.send({ type: 'key.escape' }));
    expect(store.getSnapshot().history.present.stentBorders).toBeUndefined();
    expect(area()).toBe(fitted);

    act(() => {
      tool.send({ type: 'contour.down', slice: 2, border: 'stent', controlPoints: points, index: 0, point: points[0]!, dragThreshold: 3 });
      tool.send({ type: 'pointer.move', point: { x: 370, y: 256 } });
      tool.send({ type: 'pointer.up', point: { x: 370, y: 256 } });
    });
    const stored = store.getSnapshot().history.present.stentBorders!;
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ slice: 2, source: 'manual' });
    expect(stored[0]!.controlPoints[0]).toEqual({ x: 370, y: 256 });
    // The lumen and vessel are untouched, and the card says the stent border is corrected.
    expect(store.getSnapshot().history.present.contours).toBeUndefined();
    expect(screen.getByTestId('stent-source').textContent).toBe('corrected');
    expect(area()).toBeLessThan(fitted);
    act(() => store.undo());
    expect(store.getSnapshot().history.present.stentBorders ?? []).toEqual([]);
    expect(screen.getByTestId('stent-source').textContent).toBe('fitted');
  });

  it('Re-detect drops the slice’s correction and the fitted border shows again', () => {
    const { store } = renderLayer(setStentCorrection(emptyManifest(), 2, circle(120)), 2, { read: true, border: FITTED });
    expect(screen.getByTestId('stent-source').textContent).toBe('corrected');
    expect(Number(screen.getAllByTestId('stent-point')[0]!.getAttribute('cx'))).toBe(376);
    fireEvent.click(screen.getByRole('button', { name: 'Re-detect stent' }));
    expect(store.getSnapshot().history.present.stentBorders).toEqual([]);
    expect(screen.getByTestId('stent-source').textContent).toBe('fitted');
  });

  it('offers Draw on a stented slice whose struts gave no border: it places the lumen’s outline to drag into place', () => {
    const { store } = renderLayer(emptyManifest(), 3, { read: true, border: null });
    expect(screen.getByTestId('stent-card-line').textContent).toContain('no border');
    fireEvent.click(screen.getByRole('button', { name: 'Draw stent' }));
    expect(store.getSnapshot().history.present.stentBorders).toEqual([{ slice: 3, controlPoints: circle(100), source: 'manual' }]);
    expect(screen.getAllByTestId('stent-point')).toHaveLength(16);
  });
});
