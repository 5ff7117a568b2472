/**
 * Issue 26: the B-mode frame keeps its borders, its scale bar and the frame's figures whatever the
 * tool; one switch (O) hides and shows the borders.
 */
import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { BmodeFrameFigures } from '../../../../src/web/review/contours/bmode-frame-figures.tsx';
import { ActiveToolContext, createActiveToolStore } from '../../../../src/web/review/tools/active-tool.tsx';
import type { PanelViewport } from '../../../../src/web/review/view/view-transform.ts';
import { renderApp } from '../../render.tsx';
import type { FrameLinesFor } from '../../../../src/web/review/panels/frame-lines.ts';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../../src/domain/constants.ts';
import { detectedContours } from './contours-fixture.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
/** A 512 px frame shown at 1:1 in a 700 × 520 panel. */
const viewport: PanelViewport = { transform: { scaleX: 1, scaleY: 1, x: 94, y: 4 }, imageSize: { width: 512, height: 512 }, viewportSize: { width: 700, height: 520 } };

function renderFigures({ slice = 3, assumed = false, unreadable = [] as number[] } = {}) {
  const tools = createActiveToolStore();
  const analysis = correctedAnalysis(detectedContours(10, {}, unreadable), emptyManifest(), geometry);
  const slices = { subscribe: () => () => {}, getSnapshot: () => ({ slice }) };
  // The panel's scene: the borders' lines are handed to it to draw with each slice's image (issue 27).
  const drawn: { lines: FrameLinesFor | null } = { lines: null };
  const source = { subscribe: () => () => {}, getViewport: () => viewport, setFrameLines: (lines: FrameLinesFor | null) => (drawn.lines = lines) };
  renderApp(
    <ActiveToolContext value={tools}>
      <BmodeFrameFigures viewport={source} slices={slices} analysis={analysis} pending={null} pixelSpacingMm={0.01} pixelSpacingAssumed={assumed}>
        <div data-testid="annotation-overlay" />
      </BmodeFrameFigures>
    </ActiveToolContext>,
  );
  return { tools, analysis, drawn };
}

/** The colours of the lines the panel draws on `slice`, in drawing order. */
const colorsOn = (drawn: { lines: FrameLinesFor | null }, slice: number) => drawn.lines?.(slice, viewport.imageSize).map((line) => line.color) ?? [];

describe('the B-mode frame’s borders, scale bar and figures', () => {
  it('shows the borders read-only and the frame’s figures with no tool and with the ruler', () => {
    const { tools, analysis, drawn } = renderFigures();
    for (const tool of [null, 'ruler'] as const) {
      act(() => tools.set(tool));
      // Drawn by the panel: the vessel, then the lumen on top, through the slice's control points.
      expect(colorsOn(drawn, 3)).toEqual([VESSEL_CONTOUR_COLOR, CONTOUR_COLOR]);
      expect(drawn.lines!(3, viewport.imageSize)[1]!.points).toEqual(analysis.slices[2]!.controlPoints);
      expect(screen.getByTestId('lumen-contour')).toBeTruthy();
      expect(screen.getByTestId('vessel-contour')).toBeTruthy();
      // Lines only: nothing to grab outside the contour tool.
      expect(screen.queryAllByTestId('contour-point')).toHaveLength(0);
      expect(screen.getByTestId('frame-readout').dataset.slice).toBe('3');
      expect(screen.getByTestId('contour-area').textContent).toBe(analysis.slices[2]!.areaMm2!.toFixed(2));
      expect(screen.getByTestId('vessel-area').textContent).toBe('12.00');
      expect(screen.getByTestId('min-diameter').textContent).toBe('2.00');
      expect(screen.getByTestId('max-diameter').textContent).toBe('3.00');
      expect(screen.getByTestId('plaque-burden').textContent).toBe((100 * analysis.slices[2]!.plaqueBurden!).toFixed(0));
    }
  });

  it('leaves the borders and the readout to the contour tool while it is chosen', () => {
    const { tools, drawn } = renderFigures();
    act(() => tools.set('contour'));
    expect(screen.queryByTestId('read-only-borders')).toBeNull();
    expect(drawn.lines).toBeNull();
    expect(screen.queryByTestId('frame-readout')).toBeNull();
    expect(screen.getByTestId('scale-bar')).toBeTruthy();
  });

  it('hides and shows the borders with the switch and with O, the figures staying', () => {
    const { drawn } = renderFigures();
    const toggle = screen.getByRole('button', { name: /Borders on/ });
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(toggle);
    expect(drawn.lines).toBeNull();
    expect(screen.queryByTestId('lumen-contour')).toBeNull();
    expect(screen.queryByTestId('vessel-contour')).toBeNull();
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(toggle.textContent).toBe('Borders off');
    expect(screen.getByTestId('contour-area')).toBeTruthy();
    fireEvent.keyDown(window, { key: 'o', code: 'KeyO' });
    expect(screen.getByTestId('lumen-contour')).toBeTruthy();
    expect(colorsOn(drawn, 3)).toEqual([VESSEL_CONTOUR_COLOR, CONTOUR_COLOR]);
  });

  it('says "No border" with dashes, never numbers, on a frame the detector could not read', () => {
    const { drawn } = renderFigures({ slice: 4, unreadable: [4] });
    expect(colorsOn(drawn, 4)).toEqual([]);
    const readout = screen.getByTestId('frame-readout');
    expect(screen.getByTestId('no-border').textContent).toBe('No border — the detector could not read this frame');
    expect(readout.textContent).not.toMatch(/\d+\.\d\d/);
    expect(readout.textContent?.match(/—/g)?.length).toBeGreaterThanOrEqual(5);
    expect(screen.queryByTestId('lumen-contour')).toBeNull();
  });

  it('draws a round scale bar at the frame’s zoom, and says when the pixel spacing is assumed', () => {
    renderFigures({ assumed: true });
    // 0.01 mm/px at 1:1: 100 px a mm; a quarter of the 700 px panel holds 1 mm.
    const bar = screen.getByTestId('scale-bar');
    expect(bar.dataset.lengthMm).toBe('1');
    expect(bar.dataset.lengthPx).toBe('100.0');
    expect(bar.getAttribute('aria-label')).toBe('Scale bar: 1 mm (assumed)');
  });
});
