import { Box } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useSyncExternalStore, type PointerEvent as ReactPointerEvent } from 'react';
import { slicesWithAnnotations } from '../../../domain/annotations/labels.ts';
import type { CorrectedAnalysis, PullbackGeometry } from '../../../domain/contours/corrected-analysis.ts';
import type { ImageStore } from '../frames/image-store.ts';
import type { SliceCursor } from '../frames/slice-cursor.ts';
import type { CutAngleStore } from '../lmode/cut-angle.ts';
import { LmodeBorderLayer } from '../lmode/lmode-border-layer.tsx';
import { lmodeColumnLength } from '../lmode/lmode-sampling.ts';
import { useBmodeFrameSize } from '../lmode/use-bmode-frame-size.ts';
import type { PageLmode } from '../lmode/page-lmode.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';
import type { BrightnessContrastStore } from '../view/brightness-contrast.ts';
import type { PanelViewport, PanelViewportSource } from '../view/view-transform.ts';
import { stripImageData, tickStepMm } from './lmode-strip-image.ts';
import { PLOT_MARGIN, plotMarkers } from './pullback-plot.tsx';
import { sliceToX, xToSlice, type PlotAxis } from './plot-scale.ts';
import { useSliceLine } from './slice-line.ts';
import { gatedColumns } from '../../../domain/gating/gated-analysis.ts';
import type { SliceCalcium } from '../../../domain/contours/api.ts';
import { CalciumBand } from '../calcium/calcium-band.tsx';

const STRIP_PX = 96;
const TICKS_PX = 18;
/** The strip's height, kept from the start (before the record's frame size is known): the panels above must not shrink under the pointer when it arrives. */
export const LMODE_STRIP_HEIGHT_PX = STRIP_PX + TICKS_PX;
/** How often the strip draws the L-mode again while frames arrive. */
const LOADING_REDRAW_MS = 300;
const ANNOTATION_COLOR = '#FFE411';

/** What the strip shows: the record's frames, the L-mode built from them (shared with the panel) and its cut. */
export interface LmodeStripSource {
  store: ImageStore;
  image: PageLmode;
  cutAngle: CutAngleStore;
  pixelSpacingMm: number;
  /** The L-mode panel's brightness and contrast, which the strip follows (issue 26). */
  display?: BrightnessContrastStore | undefined;
}

export interface LmodeStripProps extends LmodeStripSource {
  analysis: CorrectedAnalysis | null;
  cursor: SliceCursor;
  annotations: AnnotationStore;
  geometry: PullbackGeometry;
  /** The plot's width below: the strip takes the same x axis (slice s at the plot's x of s). */
  width: number;
  /** Gating on (issue 28): the gated L-mode, only the end-diastolic frames (0-based), each stretched over its cycle. */
  gatedFrames?: readonly number[] | null | undefined;
  /** Per slice, its calcium (issue 28), drawn as a band along the strip's top; null or absent: none. */
  calcium?: readonly (SliceCalcium | null)[] | null;
}

/**
 * The full-width L-mode strip directly above the pullback plot (issue 25), on the plot's x axis:
 * the L-mode image, the lumen and vessel borders along the cut (draggable with the contour tool),
 * mm ticks, the MLA, reference and annotation markers, and the current slice. A click or a drag off
 * the border lines moves the slice, as on the L-mode panel.
 */
export function LmodeStrip({ store, image, cutAngle, display, pixelSpacingMm, analysis, cursor, annotations, geometry, width, gatedFrames, calcium }: LmodeStripProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const frame = useBmodeFrameSize(store);
  const count = frame?.count ?? 0;
  const plotWidth = Math.max(10, width - PLOT_MARGIN.left - PLOT_MARGIN.right);
  const length = frame ? lmodeColumnLength(frame.width, frame.height) : 1;
  // Slice s sits at the plot's x of s: its column's middle (s − 0.5) maps to left + (s − 1) · step.
  const viewport = useMemo((): PanelViewport | null => {
    if (count < 2) return null;
    const step = plotWidth / (count - 1);
    return { transform: { scaleX: step, scaleY: STRIP_PX / length, x: PLOT_MARGIN.left - 0.5 * step, y: 0 }, imageSize: { width: count, height: length }, viewportSize: { width, height: STRIP_PX } };
  }, [count, plotWidth, length, width]);
  const source = useMemo((): PanelViewportSource => ({ subscribe: () => () => {}, getViewport: () => viewport }), [viewport]);
  const frameSize = frame;
  const axis: PlotAxis = { left: PLOT_MARGIN.left, width: plotWidth, count };
  const x = (slice: number) => sliceToX(slice, axis);
  const columns = useMemo(() => (gatedFrames ? gatedColumns(count, gatedFrames) : undefined), [count, gatedFrames]);

  // The image: drawn again when the cut turns (at once) and while frames arrive (a few times a second).
  useEffect(() => {
    const canvas = canvasRef.current;
    // A CPU-backed canvas: painted into the page's own layer instead of being a GPU layer of its
    // own, so the strip costs the compositor nothing extra in each played frame (issue 27).
    const context = canvas?.getContext('2d', { willReadFrequently: true });
    if (!canvas || !context || !viewport) return;
    canvas.width = width;
    canvas.height = STRIP_PX;
    let request = 0;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const draw = () => {
      request = 0;
      image.refresh(cutAngle.get());
      const lmode = image.image;
      if (lmode) context.putImageData(stripImageData(lmode, viewport.transform, width, STRIP_PX, display?.get(), columns), 0, 0);
      canvas.dataset.revision = String(lmode?.revision ?? 0);
      canvas.dataset.gated = columns ? 'true' : 'false';
    };
    const drawNow = () => {
      if (!request) request = requestAnimationFrame(draw);
    };
    // A new cut: the L-mode panel, drawing in the next frame, samples the frames at the new angle
    // (and measures it for bench:review); the strip draws the shared result one frame later.
    const drawAfterPanel = () => {
      if (!request) request = requestAnimationFrame(() => (request = requestAnimationFrame(draw)));
    };
    let loaded = store.getSnapshot().bmodeLoaded;
    const onStore = () => {
      const next = store.getSnapshot().bmodeLoaded;
      if (next === loaded || timer) return;
      loaded = next;
      timer = setTimeout(() => {
        timer = null;
        drawNow();
      }, LOADING_REDRAW_MS);
    };
    drawNow();
    const unsubscribeStore = store.subscribe(onStore);
    const unsubscribeAngle = cutAngle.subscribe(drawAfterPanel);
    const unsubscribeDisplay = display?.subscribe(drawNow);
    return () => {
      unsubscribeStore();
      unsubscribeAngle();
      unsubscribeDisplay?.();
      cancelAnimationFrame(request);
      if (timer) clearTimeout(timer);
    };
  }, [store, image, cutAngle, display, viewport, width, columns]);

  const cursorRef = useSliceLine(cursor, x, plotWidth, count);

  const manifest = useSyncExternalStore(annotations.subscribe, () => annotations.getSnapshot().manifest);
  const annotated = useMemo(() => slicesWithAnnotations(manifest), [manifest]);

  const sliceAt = (event: { clientX: number; currentTarget: Element }) => {
    cursor.setSlice(xToSlice(event.clientX - event.currentTarget.getBoundingClientRect().left, axis));
  };
  const onPointerDown = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || count < 2) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    sliceAt(event);
  };
  const onPointerMove = (event: ReactPointerEvent<HTMLDivElement>) => {
    if (event.currentTarget.hasPointerCapture?.(event.pointerId)) sliceAt(event);
  };

  if (!frame || count < 2) return <Box height={`${LMODE_STRIP_HEIGHT_PX}px`} data-testid="lmode-strip-pending" />;
  const mmPerSlice = geometry.pullbackSpeedMmPerS / geometry.frameRateHz;
  const lastMm = (count - 1) * mmPerSlice;
  const step = tickStepMm(plotWidth / Math.max(lastMm, 1e-6));
  const ticks = Array.from({ length: Math.floor(lastMm / step) + 1 }, (_, i) => i * step);
  // The markers' lines only: their labels sit just below, in the plot's label row, on the same x axis.
  const marker = ({ slice, color, label, testId }: { slice: number; color: string; label: string; testId: string }) => (
    <g key={testId} data-testid={testId} data-slice={slice}>
      <line x1={x(slice)} x2={x(slice)} y1={0} y2={STRIP_PX} stroke={color} strokeWidth={2} strokeDasharray="4 3">
        <title>{label}</title>
      </line>
    </g>
  );

  return (
    <Box position="relative" width={`${width}px`} height={`${LMODE_STRIP_HEIGHT_PX}px`} data-testid="lmode-strip" data-plot-left={PLOT_MARGIN.left} data-plot-width={plotWidth}>
      <Box position="absolute" left="0" top="0" width={`${width}px`} height={`${STRIP_PX}px`} touchAction="none" cursor="pointer" onPointerDown={onPointerDown} onPointerMove={onPointerMove} role="img" aria-label="L-mode along the pullback; click to go to a slice">
        <canvas ref={canvasRef} data-testid="lmode-strip-image" style={{ position: 'absolute', inset: 0, width: `${width}px`, height: `${STRIP_PX}px`, background: 'black' }} />
        <LmodeBorderLayer viewport={source} frame={frameSize} analysis={analysis} cutAngle={cutAngle} annotations={annotations} pixelSpacingMm={pixelSpacingMm} testId="lmode-strip-borders" gatedFrames={gatedFrames} />
      </Box>
      <svg width={width} height={STRIP_PX + TICKS_PX} style={{ position: 'absolute', inset: 0, pointerEvents: 'none' }} aria-hidden>
        {annotated.map((slice) => (
          <path key={`a${slice}`} data-testid="strip-annotation-mark" d={`M${x(slice) - 3},0 L${x(slice) + 3},0 L${x(slice)},7 Z`} fill={ANNOTATION_COLOR} />
        ))}
        {calcium ? <CalciumBand bySlice={calcium} x={x} /> : null}
        {plotMarkers(analysis, 'strip-').map(marker)}
        {ticks.map((mm) => (
          <g key={mm} data-testid="strip-mm-tick">
            <line x1={x(1 + mm / mmPerSlice)} x2={x(1 + mm / mmPerSlice)} y1={STRIP_PX} y2={STRIP_PX + 4} stroke="currentColor" />
            <text x={x(1 + mm / mmPerSlice)} y={STRIP_PX + 15} fontSize="12" fill="currentColor" textAnchor="middle">
              {mm} mm
            </text>
          </g>
        ))}
      </svg>
      <Box ref={cursorRef} data-testid="strip-cursor" position="absolute" left="0" top="0" width="2px" height={`${STRIP_PX}px`} bg="#FFE411" pointerEvents="none" willChange="transform" />
    </Box>
  );
}
