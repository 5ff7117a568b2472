import { Box } from '@chakra-ui/react';
import { useEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { createActor } from 'xstate';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';
import { commitBorderCorrection } from '../manifest/border-corrections.ts';
import { useActiveTool } from '../tools/active-tool.tsx';
import { lmodeBorderToolMachine } from '../tools/lmode-border-tool.machine.ts';
import { toolInputOf } from '../tools/tool-input.ts';
import { imageToScreen, type PanelViewportSource, type Size } from '../view/view-transform.ts';
import { BORDER_LINE_COLOURS, borderLinesFor, gatedBorderLines, pickBorderLine, strokeBorderLines, type BorderLines, type BorderLinesTarget } from './border-lines.ts';
import { degToRad, type CutAngleStore } from './cut-angle.ts';
import { keyFrameForDrop } from './lmode-border-drag.ts';
import type { PageLmode } from './page-lmode.ts';

const COLOURS = BORDER_LINE_COLOURS;
/** A press this close to a line (screen pixels, vertically) takes the line. */
const PICK_TOLERANCE_PX = 6;
const DOT_PX = 8;

export interface LmodeBorderLayerProps {
  /**
   * Where the L-mode image is on screen: the L-mode panel's controller, which draws the lines in its
   * own WebGL scene (setBorderLines), or the strip's fixed layout, under which they get a 2D canvas.
   */
  viewport: PanelViewportSource & Partial<BorderLinesTarget>;
  /** The B-mode frame size the borders and the L-mode rows are measured in; null before it is known. */
  frame: Size | null;
  analysis: CorrectedAnalysis | null;
  cutAngle: CutAngleStore;
  annotations: AnnotationStore;
  pixelSpacingMm: number;
  testId: string;
  /**
   * Gating on (issue 28): the end-diastolic frames the L-mode view shows, each over its cycle. The
   * lines follow them, and are not dragged: a column then shows another frame's border than its own.
   */
  gatedFrames?: readonly number[] | null | undefined;
}

/**
 * The lumen and vessel borders of every frame where they cross the cut, over an L-mode view (two
 * lines each side of the catheter): in the L-mode panel's WebGL scene with its image (issue 27: as a
 * canvas layer of their own they cost ~5 ms of the browser's time per played frame), on the strip a
 * 2D canvas; either redrawn only when the analysis, the cut angle or the view changes. With the
 * contour tool active a line can be dragged: the release makes a key frame on the frame pressed (one
 * undo step), which propagates to the neighbouring frames. Input reaches the drag machine through
 * the one tool input path, before the view's own tools see it.
 */
export function LmodeBorderLayer({ viewport: source, frame, analysis, cutAngle, annotations, pixelSpacingMm, testId, gatedFrames = null }: LmodeBorderLayerProps) {
  const viewport = useSyncExternalStore(source.subscribe, source.getViewport);
  const angleDeg = useSyncExternalStore(cutAngle.subscribe, cutAngle.get);
  const gated = gatedFrames !== null && gatedFrames.length > 0;
  const editable = useActiveTool() === 'contour' && !gated;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const dotRef = useRef<HTMLDivElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const every = analysis && frame ? borderLinesFor(analysis, frame, degToRad(angleDeg)) : null;
  const lines = every && gated ? gatedBorderLines(every, gatedFrames) : every;
  const scene = source.setBorderLines ? (source as BorderLinesTarget) : null;

  useEffect(() => {
    if (!scene) return;
    scene.setBorderLines(lines);
    return () => scene.setBorderLines(null);
  }, [scene, lines]);

  useEffect(() => {
    if (scene) return;
    const canvas = canvasRef.current;
    // A CPU-backed canvas, like the strip's image: not a GPU layer of its own that the compositor
    // draws again in every played frame (issue 27); it changes only with the analysis, cut or view.
    const context = canvas?.getContext('2d', { willReadFrequently: true });
    if (!canvas || !context) return;
    const ratio = globalThis.devicePixelRatio || 1;
    const size = viewport?.viewportSize ?? { width: 1, height: 1 };
    canvas.width = Math.max(1, Math.round(size.width * ratio));
    canvas.height = Math.max(1, Math.round(size.height * ratio));
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    context.clearRect(0, 0, size.width, size.height);
    // The lines are drawn in the L-mode image's columns: only once the image has one column per frame.
    if (!lines || !viewport || viewport.imageSize.width !== lines.frameCount) {
      delete canvas.dataset.frames;
      return;
    }
    strokeBorderLines(context, lines, viewport.transform, COLOURS);
    canvas.dataset.frames = String(lines.frameCount);
    canvas.dataset.gated = gated ? 'true' : 'false';
  }, [scene, lines, viewport, gated]);

  // The latest of everything a drop needs, read by the listeners without re-attaching them.
  const latest = useRef({ lines, analysis, frame, editable, pixelSpacingMm, source, annotations });
  useLayoutEffect(() => {
    latest.current = { lines, analysis, frame, editable, pixelSpacingMm, source, annotations };
  });

  useEffect(() => {
    // The view the layer lies over (the panel's surface, the strip): its events pass through it, not through this layer.
    const target = rootRef.current?.parentElement;
    if (!target) return;
    const tool = createActor(lmodeBorderToolMachine, {
      input: {
        pick: (image) => {
          const { lines: shown, editable: canEdit, source: view } = latest.current;
          const transform = view.getViewport()?.transform;
          return shown && canEdit && transform ? pickBorderLine(shown, image, PICK_TOLERANCE_PX / Math.abs(transform.scaleY)) : null;
        },
      },
    }).start();
    const hideDot = () => {
      if (dotRef.current) dotRef.current.style.visibility = 'hidden';
    };
    tool.on('border.preview', ({ hit, image }) => {
      const transform = latest.current.source.getViewport()?.transform;
      const dot = dotRef.current;
      if (!transform || !dot) return;
      const at = imageToScreen(transform, { x: hit.slice - 0.5, y: image.y });
      dot.style.visibility = 'visible';
      dot.style.transform = `translate(${at.x - DOT_PX / 2}px, ${at.y - DOT_PX / 2}px)`;
      dot.style.background = COLOURS[hit.border];
    });
    tool.on('border.cancel', hideDot);
    tool.on('border.drop', ({ hit, image }) => {
      hideDot();
      const { analysis: shown, frame: size, lines: drawn, pixelSpacingMm: spacing, annotations: store } = latest.current;
      if (!shown || !size || !drawn) return;
      const keyFrame = keyFrameForDrop(shown, hit, image.y, size, drawn.angleRad, spacing);
      commitBorderCorrection(store, keyFrame.slice, keyFrame.controlPoints, keyFrame.border, keyFrame.reachMm);
    });
    const dragging = () => tool.getSnapshot().value === 'dragging';
    const send = (event: Event) => {
      const input = toolInputOf(event, target, latest.current.source.getViewport()?.transform ?? null);
      if (input) tool.send(input);
    };
    const follow = new AbortController();
    let held: AbortController | null = null;
    // Once a line is held, its moves and release are the drag's wherever the pointer goes.
    const onHeld = (event: Event) => {
      if (!dragging()) return;
      event.stopPropagation();
      send(event);
      if (!dragging()) held?.abort();
    };
    const onPointerDown = (event: PointerEvent) => {
      send(event);
      if (!dragging()) return;
      // The view's own tools (the slice, a pan) do not see a press that took a line.
      event.stopPropagation();
      event.preventDefault();
      held?.abort();
      held = new AbortController();
      for (const type of ['pointermove', 'pointerup', 'pointercancel']) window.addEventListener(type, onHeld, { capture: true, signal: held.signal });
      window.addEventListener('keydown', onHeld, { capture: true, signal: held.signal });
    };
    target.addEventListener('pointerdown', onPointerDown, { capture: true, signal: follow.signal });
    return () => {
      follow.abort();
      held?.abort();
      tool.stop();
    };
  }, []);

  return (
    <Box ref={rootRef} position="absolute" inset="0" pointerEvents="none" data-testid={testId} data-editable={editable || undefined}>
      {scene ? (
        <SceneLinesHook testId={`${testId}-canvas`} lines={lines} drawnFrames={lines && viewport?.imageSize.width === lines.frameCount ? lines.frameCount : null} gated={gated} />
      ) : (
        <canvas ref={canvasRef} data-testid={`${testId}-canvas`} style={{ position: 'absolute', inset: 0, width: '100%', height: '100%' }} />
      )}
      <Box ref={dotRef} data-testid={`${testId}-drag`} position="absolute" left="0" top="0" width={`${DOT_PX}px`} height={`${DOT_PX}px`} borderRadius="full" border="1px solid black" visibility="hidden" />
    </Box>
  );
}

/**
 * The light DOM stand-in of lines the panel draws in its WebGL scene, nothing painted: as the strip's
 * canvas, for tests and tools, how many frames' columns they are drawn in (once the panel's image has
 * one column per frame) and whether gated.
 */
function SceneLinesHook({ testId, lines, drawnFrames, gated }: { testId: string; lines: BorderLines | null; drawnFrames: number | null; gated: boolean }) {
  return (
    <div
      data-testid={testId}
      data-frames={drawnFrames ?? undefined}
      data-gated={drawnFrames !== null ? String(gated) : undefined}
      data-lines={lines?.lines.length ?? 0}
      style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }}
    />
  );
}

/**
 * The border lines over the L-mode panel, which shows the page's L-mode (page-lmode.ts): gated
 * with it when the clinician turns gating on (issue 28), so the lines stay on the image under them.
 */
export function PanelLmodeBorderLayer({ lmode, ...props }: Omit<LmodeBorderLayerProps, 'gatedFrames'> & { lmode: PageLmode }) {
  const gatedFrames = useSyncExternalStore(lmode.subscribeGating, lmode.gatedFramesShown);
  return <LmodeBorderLayer {...props} gatedFrames={gatedFrames} />;
}
