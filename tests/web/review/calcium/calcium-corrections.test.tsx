/**
 * Issue 28: the calcium score follows the clinician. A lumen border corrected by hand has its arc
 * read again from the loaded frame (and is named); a frame not loaded keeps the detected arc and is
 * named as such; an arc set, cleared or given back by hand from the score's details changes the
 * score, is one undoable change of the annotations, and is done from the keyboard.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import type { RecordContours } from '../../../../src/domain/contours/api.ts';
import type { ReportFrame } from '../../../../src/domain/reports/report-frames.ts';
import { CalciumResults } from '../../../../src/web/review/calcium/calcium-results.tsx';
import { useHandCalciumArcs, useRecordCalcium } from '../../../../src/web/review/calcium/use-record-calcium.ts';
import { useCorrectedAnalysis } from '../../../../src/web/review/contours/pullback-analysis.tsx';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { commitBorderCorrection } from '../../../../src/web/review/manifest/border-corrections.ts';
import type { SliceMover } from '../../../../src/web/review/frames/slice-cursor.ts';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { circle, detectedContours } from '../contours/contours-fixture.ts';

/** The details follow the slice in the animation frame that draws its image (issue 27), not on each tick. */
const paintedFrame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

/** 40 slices; 280° of calcium on slices 10 to 20, none elsewhere. */
function calcifiedContours(): RecordContours {
  const contours = detectedContours(40);
  return {
    ...contours,
    contours: contours.contours.map((c) => ({ ...c, calcium: c.slice >= 10 && c.slice <= 20 ? { arcDeg: 280, startDeg: 40, endDeg: 320, nodule: false } : { arcDeg: 0, startDeg: 0, endDeg: 0, nodule: false } })),
  };
}

/** A 512 × 512 frame without any echo: no bright edge, no calcium, whatever the border. */
const blankFrame: ReportFrame = { width: 512, height: 512, pixels: new Uint8Array(512 * 512) };

function Harness({ contours, store, cursor, frameAt }: { contours: RecordContours; store: AnnotationStore; cursor: SliceMover; frameAt: (slice: number) => ReportFrame | null }) {
  const analysis = useCorrectedAnalysis({ status: 'ready', contours }, store, geometry);
  const calcium = useRecordCalcium(contours, analysis, frameAt, useHandCalciumArcs(store));
  return <CalciumResults calcium={calcium} cursor={cursor} annotations={store} />;
}

async function setUp(frameAt: (slice: number) => ReportFrame | null) {
  const store = new AnnotationStore();
  store.load({ version: 1, manifest: emptyManifest(), savedBy: null, savedAt: null });
  const cursor = imageStoreFor({ bmodeCount: 40 });
  renderApp(<Harness contours={calcifiedContours()} store={store} cursor={cursor} frameAt={frameAt} />);
  fireEvent.click(screen.getByTestId('calcium-score'));
  await screen.findByTestId('calcium-results');
  return { store, cursor };
}

describe('calcium on a lumen border corrected by hand', () => {
  it('is read again from the loaded frame, counted, and named', async () => {
    const { store, cursor } = await setUp(() => blankFrame);
    expect(screen.getByTestId('calcium-longest').textContent).toMatch(/Longest calcium: 0\.2 mm/);
    // Slice 15's border corrected (this slice only): on its frame there is no calcium to be read.
    act(() => commitBorderCorrection(store, 15, circle(130), 'lumen', 0));
    // Re-read in a task after the correction, not in the render.
    expect((await screen.findByTestId('calcium-on-corrected-border')).textContent).toBe('Measured on a border corrected by hand: slice 15');
    act(() => cursor.setSlice(15));
    await paintedFrame();
    expect(screen.getByTestId('calcium-this-slice').textContent).toBe('This slice: no calcium · measured on the corrected border');
    // The run of calcium is cut at slice 15: 10–14 is the longest now (5 slices of 1/60 mm).
    expect(screen.getByTestId('calcium-longest').textContent).toBe('Longest calcium: 0.1 mm');
    act(() => store.undo());
    expect(screen.queryByTestId('calcium-on-corrected-border')).toBeNull();
  });

  it('keeps the detected arc where the frame is not loaded, and says so', async () => {
    const { store } = await setUp(() => null);
    act(() => commitBorderCorrection(store, 15, circle(130), 'lumen', 0));
    // The re-read task runs and finds no frame.
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByTestId('calcium-hand-corrected').textContent).toContain('not loaded yet): slice 15');
    expect(screen.queryByTestId('calcium-on-corrected-border')).toBeNull();
  });
});

describe('a calcium arc corrected by hand', () => {
  it('is set from the keyboard, cleared, given back to the measure, and undone, each one change of the annotations', async () => {
    const user = userEvent.setup();
    const { store, cursor } = await setUp(() => blankFrame);
    act(() => cursor.setSlice(25));
    await paintedFrame();
    expect(screen.getByTestId('calcium-this-slice').textContent).toBe('This slice: no calcium · detected');
    await user.click(screen.getByTestId('calcium-arc-correct'));
    await user.click(screen.getByTestId('calcium-arc-start'));
    await user.keyboard('350');
    await user.click(screen.getByTestId('calcium-arc-end'));
    await user.keyboard('{Control>}a{/Control}20{Enter}');
    expect(store.getSnapshot().manifest.calcium).toEqual([{ slice: 25, startDeg: 350, arcDeg: 30 }]);
    expect(screen.getByTestId('calcium-this-slice').textContent).toBe('This slice: 30° (350°–20°) · set by hand');
    expect(screen.getByTestId('calcium-set-by-hand').textContent).toBe('Arc set by hand: slice 25');

    // A false arc cleared: slice 12 shows no calcium, and the run 10–20 is cut there (the editor stays open from slice to slice).
    act(() => cursor.setSlice(12));
    await paintedFrame();
    await user.click(screen.getByTestId('calcium-arc-clear'));
    expect(store.getSnapshot().manifest.calcium).toEqual([{ slice: 12, startDeg: 0, arcDeg: 0 }, { slice: 25, startDeg: 350, arcDeg: 30 }]);
    expect(screen.getByTestId('calcium-this-slice').textContent).toBe('This slice: no calcium · set by hand');
    expect(screen.getByTestId('calcium-set-by-hand').textContent).toBe('Arc set by hand: slices 12, 25');

    await user.click(screen.getByTestId('calcium-arc-measured'));
    expect(store.getSnapshot().manifest.calcium).toEqual([{ slice: 25, startDeg: 350, arcDeg: 30 }]);
    expect(screen.getByTestId('calcium-this-slice').textContent).toBe('This slice: 280° (40°–320°) · detected');
    act(() => store.undo());
    expect(store.getSnapshot().manifest.calcium).toEqual([{ slice: 12, startDeg: 0, arcDeg: 0 }, { slice: 25, startDeg: 350, arcDeg: 30 }]);
  });

  it('will not set an arc from degrees that are none', async () => {
    const user = userEvent.setup();
    const { store } = await setUp(() => blankFrame);
    await user.click(screen.getByTestId('calcium-arc-correct'));
    await user.click(screen.getByTestId('calcium-arc-start'));
    await user.keyboard('400');
    await user.click(screen.getByTestId('calcium-arc-end'));
    await user.keyboard('{Control>}a{/Control}10{Enter}');
    expect(screen.getByTestId('calcium-arc-set')).toHaveProperty('disabled', true);
    expect(screen.getByTestId('calcium-arc-start').getAttribute('aria-invalid')).toBe('true');
    expect(store.getSnapshot().manifest.calcium).toBeUndefined();
  });
});
