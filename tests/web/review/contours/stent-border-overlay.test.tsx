/**
 * Issue 28: once the stent is read, its border is drawn read-only on the B-mode frame of the
 * current slice, in its own colour with a legend, switched on and off with the other borders.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { BmodeFrameFigures } from '../../../../src/web/review/contours/bmode-frame-figures.tsx';
import { STENT_AREA_COLOR } from '../../../../src/web/review/contours/pullback-plot.tsx';
import { stentBorderImagePoints } from '../../../../src/web/review/contours/stent-border-overlay.tsx';
import { ActiveToolContext, createActiveToolStore } from '../../../../src/web/review/tools/active-tool.tsx';
import type { PanelViewport } from '../../../../src/web/review/view/view-transform.ts';
import { renderApp } from '../../render.tsx';
import type { FrameLinesFor } from '../../../../src/web/review/panels/frame-lines.ts';
import { detectedContours } from './contours-fixture.ts';

/** A 512 px frame at 0.01 mm a pixel, shown at 1:1 in a 700 × 520 panel. */
const viewport: PanelViewport = { transform: { scaleX: 1, scaleY: 1, x: 94, y: 4 }, imageSize: { width: 512, height: 512 }, viewportSize: { width: 700, height: 520 } };

function renderFigures(slice: number, stentBorders: ReadonlyMap<number, readonly number[]> | null) {
  const tools = createActiveToolStore();
  const drawn: { lines: FrameLinesFor | null } = { lines: null };
  const analysis = correctedAnalysis(detectedContours(10, {}), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
  renderApp(
    <ActiveToolContext value={tools}>
      <BmodeFrameFigures
        viewport={{ subscribe: () => () => {}, getViewport: () => viewport, setFrameLines: (lines) => (drawn.lines = lines) }}
        slices={{ subscribe: () => () => {}, getSnapshot: () => ({ slice }) }}
        analysis={analysis}
        pending={null}
        pixelSpacingMm={0.01}
        pixelSpacingAssumed={false}
        stentBorders={stentBorders}
      >
        <div />
      </BmodeFrameFigures>
    </ActiveToolContext>,
  );
  return { tools, drawn };
}

/** The stent's line as the panel draws it on `slice` (issue 27: in its WebGL scene), if any. */
const stentLine = (drawn: { lines: FrameLinesFor | null }, slice: number) => drawn.lines?.(slice, viewport.imageSize).find((line) => line.color === STENT_AREA_COLOR);

describe('the stent border on the B-mode frame', () => {
  it('is placed in mm around the catheter at the frame centre', () => {
    // A 1.6 mm circle: 160 px from the centre all round.
    for (const p of stentBorderImagePoints([1.6, 0, 0, 0, 0], { width: 512, height: 512 }, 0.01)) expect(Math.hypot(p.x - 256, p.y - 256)).toBeCloseTo(160, 6);
    // The first harmonic moves it off centre: 1.8 mm towards +x (angle 0), 1.4 mm towards −x.
    const shifted = stentBorderImagePoints([1.6, 0.2, 0, 0, 0], { width: 512, height: 512 }, 0.01);
    expect(shifted[0]!.x).toBeCloseTo(256 + 180, 6);
    expect(shifted[16]!.x).toBeCloseTo(256 - 140, 6);
  });

  it('is drawn read-only on a stented slice, in its own colour with a legend, and not on the others', () => {
    const { drawn } = renderFigures(3, new Map([[3, [1.6, 0, 0, 0, 0]]]));
    expect(screen.getByTestId('stent-border')).toBeTruthy();
    // Dashed, in the stent's colour, 1.6 mm round the catheter.
    const line = stentLine(drawn, 3)!;
    expect(line.dash).toEqual([6, 3]);
    for (const p of line.points) expect(Math.hypot(p.x - 256, p.y - 256)).toBeCloseTo(160, 6);
    expect(stentLine(drawn, 4)).toBeUndefined();
    expect(screen.getByTestId('stent-border-overlay').style.pointerEvents).toBe('none');
    expect(screen.getByTestId('stent-border-legend').textContent).toContain('Stent border');
    // The lumen and vessel borders stay.
    expect(screen.getByTestId('lumen-contour')).toBeTruthy();
  });

  it('is not drawn on a slice outside the stent, nor before the stent is read', () => {
    renderFigures(5, new Map([[3, [1.6, 0, 0, 0, 0]]]));
    expect(screen.queryByTestId('stent-border')).toBeNull();
    renderFigures(3, null);
    expect(screen.queryByTestId('stent-border')).toBeNull();
  });

  it('is hidden with the other borders (O) and left out while the contour tool is chosen', () => {
    const { tools, drawn } = renderFigures(3, new Map([[3, [1.6, 0, 0, 0, 0]]]));
    fireEvent.keyDown(window, { key: 'o', code: 'KeyO' });
    expect(screen.queryByTestId('stent-border')).toBeNull();
    expect(drawn.lines).toBeNull();
    fireEvent.keyDown(window, { key: 'o', code: 'KeyO' });
    expect(screen.getByTestId('stent-border')).toBeTruthy();
    act(() => tools.set('contour'));
    expect(screen.queryByTestId('stent-border')).toBeNull();
    expect(drawn.lines).toBeNull();
  });
});
