import { Box } from '@chakra-ui/react';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { createActor } from 'xstate';
import { imagePoint } from '../../../domain/image-point.ts';
import { imageToScreen, type ImagePoint, type PanelViewportSource, type Size, type ViewTransform } from '../view/view-transform.ts';
import { cutLineToolMachine } from '../tools/cut-line-tool.machine.ts';
import { toolInputOf } from '../tools/tool-input.ts';
import { angleForKey, angleTowards, degToRad, type CutAngleStore } from './cut-angle.ts';
import { lmodeColumnLength } from './lmode-sampling.ts';

export const CUT_LINE_COLOR = '#ffe411';
export const CUT_LINE_WIDTH_PX = 1.5;
/** Dash and gap, screen pixels. */
export const CUT_LINE_DASH_PX: readonly [number, number] = [6, 4];
/** The handle sits this far out along the line, as a share of the frame's shorter half-side, so it stays on the image. */
const HANDLE_RADIUS_SHARE = 0.9;
/** The handle's diameter; the B-mode's readout and cards keep clear of it (readout-placement.ts). */
export const CUT_HANDLE_SIZE_PX = 16;

export interface CutLineProps {
  viewport: PanelViewportSource;
  cutAngle: CutAngleStore;
}

/**
 * The L-mode cut line over the B-mode image, with a handle that turns it: dragged with the
 * pointer, or focused and turned with the arrow keys (Shift for 10°). The line itself is drawn by
 * the B-mode panel in its WebGL scene with the image (cutLineInImage, issue 27): as an SVG over the
 * canvas it made the compositor keep a layer the panel's size that it blended again in every played
 * frame. The SVG stays, unpainted, as the line's stand-in for tests; turning the line redraws the
 * scene without uploading the texture again.
 */
export function CutLine({ viewport, cutAngle }: CutLineProps) {
  const shown = useSyncExternalStore(viewport.subscribe, viewport.getViewport);
  const angle = useSyncExternalStore(cutAngle.subscribe, cutAngle.get);
  const layerRef = useRef<HTMLDivElement>(null);
  const handleRef = useRef<HTMLDivElement>(null);

  // Native listeners: the panel's own pointer and the review's arrow-key listeners are native
  // too, and must not see what the handle takes (a drag here is not a pan, an arrow not a slice).
  useEffect(() => {
    const handle = handleRef.current;
    const layer = layerRef.current;
    if (!handle || !layer) return;
    // The handle's turning is the cut-line tool's machine; this layer applies its turns to the angle.
    const tool = createActor(cutLineToolMachine).start();
    let turnedByKey = false;
    tool.on('turn.towards', ({ image }) => {
      const view = viewport.getViewport();
      if (view) cutAngle.set(angleTowards({ x: view.imageSize.width / 2, y: view.imageSize.height / 2 }, image));
    });
    tool.on('turn.key', ({ key, shiftKey }) => {
      const next = angleForKey(cutAngle.get(), key, shiftKey);
      if (next === null) return;
      turnedByKey = true;
      cutAngle.set(next);
    });
    // Points are the layer's (the whole panel), not the small handle's.
    const send = (event: Event) => {
      const input = toolInputOf(event, layer, viewport.getViewport()?.transform ?? null);
      if (input) tool.send(input);
    };
    const holds = (event: PointerEvent) => tool.getSnapshot().context.pointerId === event.pointerId;
    const onPointerDown = (event: PointerEvent) => {
      if (event.button !== 0) return;
      event.stopPropagation();
      event.preventDefault();
      handle.focus();
      send(event);
      handle.setPointerCapture?.(event.pointerId);
    };
    const onPointerMoveOrUp = (event: PointerEvent) => {
      if (!holds(event)) return;
      event.stopPropagation();
      send(event);
    };
    const onKeyDown = (event: KeyboardEvent) => {
      turnedByKey = false;
      send(event);
      if (!turnedByKey) return;
      event.preventDefault();
      event.stopPropagation();
    };
    const listeners = new AbortController();
    const { signal } = listeners;
    handle.addEventListener('pointerdown', onPointerDown, { signal });
    handle.addEventListener('pointermove', onPointerMoveOrUp, { signal });
    handle.addEventListener('pointerup', onPointerMoveOrUp, { signal });
    handle.addEventListener('pointercancel', onPointerMoveOrUp, { signal });
    handle.addEventListener('keydown', onKeyDown, { signal });
    return () => {
      listeners.abort();
      tool.stop();
    };
  }, [viewport, cutAngle]);

  const line = shown ? cutLineOnScreen(shown.transform, shown.imageSize, angle) : null;
  return (
    <Box ref={layerRef} position="absolute" inset="0" pointerEvents="none" data-testid="lmode-cut-line" data-angle={angle}>
      {line ? (
        <svg width="100%" height="100%" style={{ position: 'absolute', inset: 0, visibility: 'hidden' }} aria-hidden>
          <line x1={line.from.x} y1={line.from.y} x2={line.to.x} y2={line.to.y} />
        </svg>
      ) : null}
      <Box
        ref={handleRef}
        role="slider"
        tabIndex={0}
        aria-label="L-mode cut angle"
        aria-valuemin={0}
        aria-valuemax={359}
        aria-valuenow={angle}
        aria-valuetext={`${angle}°`}
        aria-orientation="horizontal"
        title={`L-mode cut at ${angle}° (arrow keys turn it, Shift for 10°)`}
        data-testid="lmode-cut-handle"
        position="absolute"
        left="0"
        top="0"
        width={`${CUT_HANDLE_SIZE_PX}px`}
        height={`${CUT_HANDLE_SIZE_PX}px`}
        borderRadius="full"
        border="2px solid"
        borderColor={CUT_LINE_COLOR}
        bg="blackAlpha.600"
        cursor="grab"
        touchAction="none"
        pointerEvents="auto"
        visibility={line ? 'visible' : 'hidden'}
        transform={line ? `translate(${line.handle.x - CUT_HANDLE_SIZE_PX / 2}px, ${line.handle.y - CUT_HANDLE_SIZE_PX / 2}px)` : undefined}
        _focusVisible={{ outline: '2px solid', outlineColor: 'blue.400', outlineOffset: '2px' }}
      />
    </Box>
  );
}

/** The point `distance` image pixels from the frame's centre along the cut at `angleDeg`. */
function alongCut(image: Size, angleDeg: number, distance: number): ImagePoint {
  return imagePoint(image.width / 2 + distance * Math.cos(degToRad(angleDeg)), image.height / 2 + distance * Math.sin(degToRad(angleDeg)));
}

/** The cut line's ends in image pixels: the L-mode samples each frame between them. */
export function cutLineInImage(image: Size, angleDeg: number): { from: ImagePoint; to: ImagePoint } {
  const half = lmodeColumnLength(image.width, image.height) / 2;
  return { from: alongCut(image, angleDeg, -half), to: alongCut(image, angleDeg, half) };
}

/** The cut line's ends and the handle, in screen pixels. */
export function cutLineOnScreen(transform: ViewTransform, image: Size, angleDeg: number) {
  const { from, to } = cutLineInImage(image, angleDeg);
  const handleRadius = (HANDLE_RADIUS_SHARE * Math.min(image.width, image.height)) / 2;
  return { from: imageToScreen(transform, from), to: imageToScreen(transform, to), handle: imageToScreen(transform, alongCut(image, angleDeg, handleRadius)) };
}
