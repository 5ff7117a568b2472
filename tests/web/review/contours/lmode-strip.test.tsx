/**
 * Issue 25: the L-mode strip above the pullback plot shares the plot's x axis: the MLA, the
 * references and the annotated slices are marked where the plot marks them, mm ticks run along it,
 * and a click goes to the slice under the pointer as a click on the plot does.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { LmodeStrip } from '../../../../src/web/review/contours/lmode-strip.tsx';
import { tickStepMm } from '../../../../src/web/review/contours/lmode-strip-image.ts';
import { PLOT_MARGIN } from '../../../../src/web/review/contours/pullback-plot.tsx';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { createCutAngleStore } from '../../../../src/web/review/lmode/cut-angle.ts';
import { PageLmode } from '../../../../src/web/review/lmode/page-lmode.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { ActiveToolContext, createActiveToolStore } from '../../../../src/web/review/tools/active-tool.tsx';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { detectedContours } from './contours-fixture.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
/** 600 px of plot area between the margins: one px a slice for 601 slices. */
const STRIP_WIDTH = PLOT_MARGIN.left + 600 + PLOT_MARGIN.right;

function renderStrip() {
  const store = imageStoreFor({ bmodeCount: 601 });
  const annotations = new AnnotationStore();
  annotations.load({ version: 1, manifest: emptyManifest(), savedBy: null, savedAt: null });
  annotations.add(newRuler(annotations.getSnapshot().manifest, 301, { x: 0, y: 0 }, { x: 1, y: 0 }));
  const analysis = correctedAnalysis(detectedContours(601), emptyManifest(), geometry);
  const cursor = new SliceCursor(store);
  renderApp(
    <ActiveToolContext value={createActiveToolStore()}>
      <LmodeStrip store={store} image={new PageLmode(store)} cutAngle={createCutAngleStore()} pixelSpacingMm={0.01} analysis={analysis} cursor={cursor} annotations={annotations} geometry={geometry} width={STRIP_WIDTH} />
    </ActiveToolContext>,
  );
  return { analysis, cursor };
}

describe('the L-mode strip above the plot', () => {
  it('marks the MLA and the references at the plot’s x of their slices, the annotated slices, and mm ticks along the 10 mm pullback', () => {
    const { analysis } = renderStrip();
    // 600 px of plot area for slices 1 to 601, one px a slice.
    const mla = analysis.analysis.mla!;
    const flag = screen.getByTestId('strip-mla');
    expect(flag.getAttribute('data-slice')).toBe(String(mla.index + 1));
    expect(Number(flag.querySelector('line')!.getAttribute('x1'))).toBe(PLOT_MARGIN.left + mla.index);
    const mark = screen.getByTestId('strip-annotation-mark');
    expect(mark.getAttribute('d')).toMatch(new RegExp(`^M${PLOT_MARGIN.left + 300 - 3},0 `));
    // 601 frames at 60 a mm: 10 mm in 600 px, 60 px a mm, so a labelled tick every mm (labels 48 px apart at least).
    expect(screen.getAllByTestId('strip-mm-tick').map((tick) => tick.textContent)).toEqual(['0 mm', '1 mm', '2 mm', '3 mm', '4 mm', '5 mm', '6 mm', '7 mm', '8 mm', '9 mm', '10 mm']);
  });

  it('goes to the slice under a click', () => {
    const { cursor } = renderStrip();
    const area = screen.getByLabelText(/L-mode along the pullback/);
    area.getBoundingClientRect = () => ({ left: 0, top: 0, right: STRIP_WIDTH, bottom: 96, width: STRIP_WIDTH, height: 96, x: 0, y: 0, toJSON: () => ({}) });
    fireEvent.pointerDown(area, { button: 0, clientX: PLOT_MARGIN.left + 250, clientY: 2, pointerId: 1 });
    expect(cursor.getSnapshot().slice).toBe(251);
  });

  it('spaces its mm labels at least 48 px apart', () => {
    expect(tickStepMm(60)).toBe(1);
    expect(tickStepMm(8)).toBe(10);
    expect(tickStepMm(30)).toBe(2);
  });
});
