import { Box } from '@chakra-ui/react';
import { useActorRef, useSelector } from '@xstate/react';
import { useEffect, useMemo, useRef, useSyncExternalStore, type PointerEvent as ReactPointerEvent } from 'react';
import { HIT_RADIUS_PX } from '../../../domain/constants.ts';
import { DRAG_THRESHOLD_PX } from '../../../domain/annotations/drag.ts';
import { annotationsOnSlice } from '../../../domain/annotations/edits.ts';
import { slicesWithAnnotations } from '../../../domain/annotations/labels.ts';
import type { Point, TypedAnnotation } from '../../../domain/annotations/manifest.ts';
import type { EditableBorder } from '../../../domain/annotations/stent-corrections.ts';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import { ContourLayer } from '../contours/contour-layer.tsx';
import type { ImageStore } from '../frames/image-store.ts';
import { screenLengthToImage, type ImagePoint, type PanelViewportSource } from '../view/view-transform.ts';
import { useActiveTool } from '../tools/active-tool.tsx';
import { isKeyForFocusedControl } from '../tools/keyboard-guard.ts';
import { imagePointOf } from '../tools/tool-input.ts';
import { AnnotationShape } from './annotation-shapes.tsx';
import type { AnnotationStore } from '../manifest/annotation-store.ts';
import { annotationToolMachine, interactionOf, topStateOf } from '../tools/annotation-tool.machine.ts';
import { LabelCards } from './label-cards.tsx';

const ANNOTATION_TOOLS = new Set(['ruler', 'area', 'text', 'angle']);
/** A new angle's arms are this share of the image's smaller side. */
const NEW_ANGLE_ARM_SHARE = 0.2;

export interface AnnotationOverlayProps {
  viewport: PanelViewportSource;
  images: ImageStore;
  annotations: AnnotationStore;
  pixelSpacingMm: number;
  /** The lumen and vessel contours for the contour tool: the measured analysis, or why there is none yet. */
  contours?:
    | {
        analysis: CorrectedAnalysis | null;
        pending: string | null;
        /** Issue 28: once the stent is read, its fitted border by slice (harmonic coefficients, mm): the contour tool lets the clinician correct it. */
        stentBorders?: ReadonlyMap<number, readonly number[]> | null | undefined;
      }
    | undefined;
}

/** The resting state: in any other the pointer is down (or a ruler is half drawn) and moves go to the machine. */
const RESTING = 'idle';

/**
 * The annotations of the current slice over the B-mode image (SVG, in screen space so lines stay
 * sharp at any zoom), with their label cards. Pointer input goes to the tool statechart, which
 * writes its changes (the selection included) through the annotation store it is given. Keys: Escape cancels, Delete removes the selected
 * annotation, Ctrl+Z / Ctrl+Shift+Z undo and redo.
 */
export function AnnotationOverlay({ viewport: source, images, annotations, pixelSpacingMm, contours }: AnnotationOverlayProps) {
  const viewport = useSyncExternalStore(source.subscribe, source.getViewport);
  const snapshot = useSyncExternalStore(annotations.subscribe, annotations.getSnapshot);
  const tool = useActiveTool();
  const annotatedSlices = useMemo(() => new Set(slicesWithAnnotations(snapshot.manifest)), [snapshot.manifest]);
  // The overlay renders again only on slices that show something: scrubbing through slices without
  // annotations (most of a pullback) costs no React work here. 0 stands for "nothing to show".
  const slice = useSyncExternalStore(images.subscribe, () => {
    const current = images.getSnapshot().slice;
    return tool === 'contour' || annotatedSlices.has(current) ? current : 0;
  });
  // The machine reads the selection, the manifest and the slice from their owners and writes through the store.
  const actor = useActorRef(annotationToolMachine, { input: { store: annotations, slice: () => images.getSnapshot().slice } });
  const draft = useSelector(actor, (state) => state.context.draft);
  // At rest, a selection in the store (made here, on a card or by undo) shows as `selecting`.
  const machineState = interactionOf(useSelector(actor, topStateOf), snapshot.selectedId);
  // Read from the actor, not from the last render: a move can arrive before React renders the press.
  const busy = () => !actor.getSnapshot().matches(RESTING);
  const svgRef = useRef<SVGSVGElement>(null);

  useEffect(() => {
    annotations.setInteraction(machineState);
  }, [annotations, machineState]);

  // Changing slice or tool ends what was being drawn.
  useEffect(() => {
    actor.send({ type: 'key.escape' });
    let shown = images.getSnapshot().slice;
    return images.subscribe(() => {
      const next = images.getSnapshot().slice;
      // At rest with nothing selected, Escape changes nothing: not sent on every playback tick (issue 27).
      const nothingToEnd = actor.getSnapshot().matches(RESTING) && annotations.getSnapshot().selectedId === null;
      if (next !== shown && !nothingToEnd) actor.send({ type: 'key.escape' });
      shown = next;
    });
  }, [actor, images, annotations, tool]);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (isKeyForFocusedControl(event)) return;
      const ctrl = event.ctrlKey || event.metaKey;
      if (ctrl && (event.key === 'z' || event.key === 'Z')) {
        event.preventDefault();
        if (event.shiftKey) annotations.redo();
        else annotations.undo();
      } else if (ctrl && (event.key === 'y' || event.key === 'Y')) {
        event.preventDefault();
        annotations.redo();
      } else if (event.key === 'Escape') {
        actor.send({ type: 'key.escape' });
      } else if (event.key === 'Delete' || event.key === 'Backspace') {
        actor.send({ type: 'key.delete' });
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [actor, annotations]);

  const onSlice = useMemo(() => annotationsOnSlice(snapshot.manifest, slice), [snapshot.manifest, slice]);

  const imagePoint = (event: { clientX: number; clientY: number }): ImagePoint | null => {
    const vp = source.getViewport();
    const svg = svgRef.current;
    return vp && svg ? imagePointOf(svg, event, vp.transform) : null;
  };
  /** DRAG_THRESHOLD_PX screen pixels in image pixels at the current zoom. */
  const dragThreshold = () => {
    const vp = source.getViewport();
    return vp ? screenLengthToImage(vp.transform, DRAG_THRESHOLD_PX) : DRAG_THRESHOLD_PX;
  };

  /**
   * A press outside the overlay's own SVG (a note's grip, a contour point): the element pressed
   * keeps the pointer, and its moves reach the machine until the release.
   */
  const followPointer = (event: ReactPointerEvent) => {
    const target = event.currentTarget;
    target.setPointerCapture?.(event.pointerId);
    const controller = new AbortController();
    const send = (type: 'pointer.move' | 'pointer.up') => (next: Event) => {
      const point = next instanceof MouseEvent ? imagePoint(next) : null;
      if (point) actor.send({ type, point });
      if (type === 'pointer.up') controller.abort();
    };
    target.addEventListener('pointermove', send('pointer.move'), { signal: controller.signal });
    target.addEventListener('pointerup', send('pointer.up'), { signal: controller.signal });
    target.addEventListener(
      'pointercancel',
      () => {
        actor.send({ type: 'key.escape' });
        controller.abort();
      },
      { signal: controller.signal },
    );
  };

  const onGripDown = (annotation: TypedAnnotation, event: ReactPointerEvent) => {
    const point = imagePoint(event);
    if (event.button !== 0 || !point) return;
    event.preventDefault();
    actor.send({ type: 'grip.down', annotation, point, dragThreshold: dragThreshold() });
    followPointer(event);
  };

  const onContourPointDown = (border: EditableBorder, controlPoints: readonly Point[], index: number, event: ReactPointerEvent) => {
    const point = imagePoint(event);
    if (event.button !== 0 || !point) return;
    event.preventDefault();
    event.stopPropagation();
    actor.send({ type: 'contour.down', slice: images.getSnapshot().slice, border, controlPoints, index, point, dragThreshold: dragThreshold() });
    followPointer(event);
  };

  const onPointerDown = (event: ReactPointerEvent<SVGSVGElement>) => {
    const vp = source.getViewport();
    const point = imagePoint(event);
    if (event.button !== 0 || !vp || !point || snapshot.status !== 'ready') return;
    // No mouse-compatibility focus change: a note created by this click keeps the keyboard.
    event.preventDefault();
    const { width, height } = vp.imageSize;
    actor.send({
      type: 'pointer.down',
      point,
      tool: tool && ANNOTATION_TOOLS.has(tool) ? tool : null,
      hitRadius: screenLengthToImage(vp.transform, HIT_RADIUS_PX),
      dragThreshold: dragThreshold(),
      center: { x: width / 2, y: height / 2 },
      armLength: Math.min(width, height) * NEW_ANGLE_ARM_SHARE,
    });
    if (busy()) {
      event.currentTarget.setPointerCapture?.(event.pointerId);
      event.stopPropagation();
    }
  };
  const onPointerMove = (event: ReactPointerEvent<SVGSVGElement>) => {
    const point = imagePoint(event);
    if (point && busy()) actor.send({ type: 'pointer.move', point });
  };
  const onPointerUp = (event: ReactPointerEvent<SVGSVGElement>) => {
    const point = imagePoint(event);
    if (point && busy()) actor.send({ type: 'pointer.up', point });
  };

  const drawing = tool !== null && ANNOTATION_TOOLS.has(tool);
  return (
    <Box position="absolute" inset="0" overflow="hidden" pointerEvents="none" data-testid="annotation-overlay" data-pixel-spacing={pixelSpacingMm} data-tool-state={machineState} data-annotation-count={onSlice.length}>
      <svg
        ref={svgRef}
        width="100%"
        height="100%"
        style={{
          position: 'absolute',
          inset: 0,
          // The brightness tool drags on the panel itself; the contour tool has its own layer.
          pointerEvents: tool === 'brightness' || tool === 'contour' ? 'none' : 'auto',
          cursor: drawing ? 'crosshair' : undefined,
          // A drag on the image draws or moves; it never starts a text selection.
          userSelect: 'none',
        }}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerCancel={() => actor.send({ type: 'key.escape' })}
      >
        {viewport
          ? onSlice.map((annotation) => (
              <AnnotationShape key={annotation.id} annotation={annotation} transform={viewport.transform} selected={annotation.id === snapshot.selectedId} />
            ))
          : null}
        {viewport && draft ? <AnnotationShape annotation={draft} transform={viewport.transform} selected={false} draft /> : null}
      </svg>
      {viewport && tool === 'contour' ? (
        <ContourLayer
          measurement={contours?.analysis?.slices[slice - 1] ?? null}
          pending={contours?.pending ?? null}
          slice={slice}
          store={annotations}
          tool={actor}
          onPointDown={onContourPointDown}
          transform={viewport.transform}
          pixelSpacingMm={pixelSpacingMm}
          frameSize={viewport.imageSize}
          stentRead={(contours?.stentBorders ?? null) !== null}
          stentBorder={contours?.stentBorders?.get(slice) ?? null}
        />
      ) : null}
      {viewport ? (
        <LabelCards
          annotations={onSlice}
          store={annotations}
          transform={viewport.transform}
          pixelSpacingMm={pixelSpacingMm}
          selectedId={snapshot.selectedId}
          focusTextId={snapshot.focusTextId}
          onGripDown={onGripDown}
          borders={contours?.analysis?.slices[slice - 1] ?? null}
          contourTool={tool === 'contour'}
        />
      ) : null}
    </Box>
  );
}
