/**
 * Issue 28: the slice's calcium arc on the B-mode frame, read-only, where the score counts it: just
 * outside the lumen border, from its start to its end (0° to the right, clockwise on screen), in the
 * band's colour, with a legend saying where the arc came from; hidden with the borders (O).
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { recordCalcium } from '../../../../src/domain/calcium/record-calcium.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { BmodeFrameFigures } from '../../../../src/web/review/contours/bmode-frame-figures.tsx';
import { calciumArcImagePoints } from '../../../../src/web/review/calcium/calcium-arc-overlay.tsx';
import { calciumArcColor } from '../../../../src/web/review/calcium/calcium-colors.ts';
import { ActiveToolContext, createActiveToolStore } from '../../../../src/web/review/tools/active-tool.tsx';
import type { PanelViewport } from '../../../../src/web/review/view/view-transform.ts';
import type { FrameLinesFor } from '../../../../src/web/review/panels/frame-lines.ts';
import { CONTOUR_COLOR } from '../../../../src/domain/constants.ts';
import { renderApp } from '../../render.tsx';
import { detectedContours } from '../contours/contours-fixture.ts';

const viewport: PanelViewport = { transform: { scaleX: 1, scaleY: 1, x: 94, y: 4 }, imageSize: { width: 512, height: 512 }, viewportSize: { width: 700, height: 520 } };

function renderFigures(slice: number) {
  const base = detectedContours(10);
  const contours = { ...base, contours: base.contours.map((c) => ({ ...c, calcium: { arcDeg: c.slice === 3 ? 90 : 0, startDeg: 0, endDeg: c.slice === 3 ? 90 : 0, nodule: false } })) };
  const analysis = correctedAnalysis(contours, emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
  const calcium = recordCalcium(contours, 0.5 / 30, () => false, { byHand: [{ slice: 4, startDeg: 180, arcDeg: 300 }] });
  // The panel's scene: the arc is handed to it with the borders, to draw with each slice's image (issue 27).
  const drawn: { lines: FrameLinesFor | null } = { lines: null };
  renderApp(
    <ActiveToolContext value={createActiveToolStore()}>
      <BmodeFrameFigures
        viewport={{ subscribe: () => () => {}, getViewport: () => viewport, setFrameLines: (lines) => (drawn.lines = lines) }}
        slices={{ subscribe: () => () => {}, getSnapshot: () => ({ slice }) }}
        analysis={analysis}
        pending={null}
        pixelSpacingMm={0.01}
        pixelSpacingAssumed={false}
        calciumArcs={calcium}
      >
        <div />
      </BmodeFrameFigures>
    </ActiveToolContext>,
  );
  return drawn;
}

/** The line the panel draws for the calcium arc on `slice` (in the calcium band's colours), if any. */
const arcLineOn = (drawn: { lines: FrameLinesFor | null }, slice: number) => drawn.lines?.(slice, viewport.imageSize).find((line) => line.shape === 'open') ?? null;

describe('the calcium arc on the B-mode frame', () => {
  it('runs from its start to its end round the catheter, clockwise on screen', () => {
    const points = calciumArcImagePoints({ startDeg: 0, arcDeg: 90 }, { width: 512, height: 512 }, 100);
    expect(points[0]).toEqual({ x: 356, y: 256 });
    // 90° on, clockwise on screen (y down): straight below the centre.
    expect(points.at(-1)!.x).toBeCloseTo(256, 6);
    expect(points.at(-1)!.y).toBeCloseTo(356, 6);
  });

  it('is drawn on a calcified slice in its colour, with where it came from, and not on a slice without calcium', () => {
    const drawn = renderFigures(3);
    // Drawn by the panel last, over the borders: 4 px with round ends, from 0° to 90° just outside the lumen.
    const arc = arcLineOn(drawn, 3)!;
    expect(drawn.lines!(3, viewport.imageSize).at(-1)).toEqual(arc);
    expect(arc).toMatchObject({ color: calciumArcColor(90), width: 4, roundCap: true, alpha: 0.85 });
    const lumenFarPx = Math.max(...drawn.lines!(3, viewport.imageSize).find((line) => line.color === CONTOUR_COLOR)!.points.map((p) => Math.hypot(p.x - 256, p.y - 256)));
    expect(arc.points[0]!.x).toBeCloseTo(256 + lumenFarPx + 0.3 / 0.01, 6);
    expect(arc.points.at(-1)!.y).toBeCloseTo(256 + lumenFarPx + 0.3 / 0.01, 6);
    expect(screen.getByTestId('calcium-arc').dataset.stroke).toBe(calciumArcColor(90));
    expect(arcLineOn(drawn, 5)).toBeNull();
    expect(screen.getByTestId('calcium-arc-legend').textContent).toBe('Calcium arc 90° (0°–90°), detected');
    expect(screen.getByTestId('calcium-arc-overlay').style.pointerEvents).toBe('none');
    renderFigures(5);
    expect(screen.getAllByTestId('calcium-arc')).toHaveLength(1);
  });

  it('shows an arc set by hand as such, and hides with the borders (O)', () => {
    const drawn = renderFigures(4);
    expect(screen.getByTestId('calcium-arc-legend').textContent).toBe('Calcium arc 300° (180°–120°), set by hand');
    expect(arcLineOn(drawn, 4)!.color).toBe(calciumArcColor(300));
    fireEvent.keyDown(window, { key: 'o', code: 'KeyO' });
    expect(screen.queryByTestId('calcium-arc')).toBeNull();
    expect(drawn.lines).toBeNull();
  });
});
