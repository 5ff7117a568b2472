/**
 * Issue 27: the L-mode panel draws the border lines in its own WebGL scene with its image (no canvas
 * layer of their own, redrawn by the compositor in every played frame); the strip keeps its 2D
 * canvas. Either way the lines are those of the cut, in the borders' colours, 1.5 px wide.
 */
import { screen } from '@testing-library/react';
import type { Graphics } from 'pixi.js';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { CONTOUR_COLOR, VESSEL_CONTOUR_COLOR } from '../../../../src/domain/constants.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { borderLinesFor, type BorderLines } from '../../../../src/web/review/lmode/border-lines.ts';
import { strokeBorderLinesOn } from '../../../../src/web/review/panels/frame-lines.ts';
import { createCutAngleStore } from '../../../../src/web/review/lmode/cut-angle.ts';
import { LmodeBorderLayer } from '../../../../src/web/review/lmode/lmode-border-layer.tsx';
import { ActiveToolContext, createActiveToolStore } from '../../../../src/web/review/tools/active-tool.tsx';
import type { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import type { PanelViewport } from '../../../../src/web/review/view/view-transform.ts';
import { renderApp } from '../../render.tsx';
import { detectedContours } from '../contours/contours-fixture.ts';

const frame = { width: 512, height: 512 };
const analysis = correctedAnalysis(detectedContours(300, {}, [40]), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 });
// The L-mode image: one column per frame, 512 rows, shown 600 x 256 px.
const viewport: PanelViewport = { transform: { x: 0, y: 0, scaleX: 2, scaleY: 0.5 }, imageSize: { width: 300, height: 512 }, viewportSize: { width: 600, height: 256 } };

function renderLayer(scene: { setBorderLines?: (lines: BorderLines | null) => void }) {
  const source = { subscribe: () => () => {}, getViewport: () => viewport, ...scene };
  return renderApp(
    <ActiveToolContext value={createActiveToolStore()}>
      <LmodeBorderLayer viewport={source} frame={frame} analysis={analysis} cutAngle={createCutAngleStore(0)} annotations={{} as AnnotationStore} pixelSpacingMm={0.01} testId="lmode-panel-borders" />
    </ActiveToolContext>,
  );
}

/** A Graphics that records the sub-paths traced and the strokes given. */
function recordingGraphics() {
  const strokes: { color: string; width: number; moves: number; points: number }[] = [];
  let moves = 0;
  let points = 0;
  const graphics = {
    moveTo: () => ((moves += 1), (points += 1), graphics),
    lineTo: () => ((points += 1), graphics),
    stroke: (style: { color: string; width: number }) => {
      strokes.push({ color: style.color, width: style.width, moves, points });
      moves = 0;
      points = 0;
      return graphics;
    },
  };
  return { graphics: graphics as unknown as Graphics, strokes };
}

describe('the L-mode border lines in the panel’s scene', () => {
  it('are handed to the panel to draw with its image, and taken back when the layer goes', () => {
    const handed: (BorderLines | null)[] = [];
    const { unmount } = renderLayer({ setBorderLines: (lines) => handed.push(lines) });
    expect(handed).toEqual([borderLinesFor(analysis, frame, 0)]);
    // No canvas of the layer's own: a stand-in that says the lines are drawn in the image's 300 columns.
    const hook = screen.getByTestId('lmode-panel-borders-canvas');
    expect(hook.tagName).toBe('DIV');
    expect(hook.dataset.frames).toBe('300');
    expect(hook.dataset.gated).toBe('false');
    unmount();
    expect(handed.at(-1)).toBeNull();
  });

  it('keep a 2D canvas of their own over a view with no scene (the strip)', () => {
    renderLayer({});
    expect(screen.getByTestId('lmode-panel-borders-canvas').tagName).toBe('CANVAS');
  });

  it('are stroked in the borders’ colours, 1.5 px, one sub-path per run of frames with the border, a pixel column at most a point', () => {
    const { graphics, strokes } = recordingGraphics();
    strokeBorderLinesOn(graphics, borderLinesFor(analysis, frame, 0), viewport.transform);
    expect(strokes.map((s) => s.color)).toEqual([VESSEL_CONTOUR_COLOR, VESSEL_CONTOUR_COLOR, CONTOUR_COLOR, CONTOUR_COLOR]);
    expect(strokes.every((s) => s.width === 1.5)).toBe(true);
    // Frame 40 has no border: each line breaks there into two runs (39 and 260 frames, 2 px a frame).
    expect(strokes.map((s) => [s.moves, s.points])).toEqual(Array.from({ length: 4 }, () => [2, 299]));
  });
});
