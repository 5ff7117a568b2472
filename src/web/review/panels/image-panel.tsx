import { Box } from '@chakra-ui/react';
import { Application, type ApplicationRef } from '@pixi/react';
import type { Application as PixiApplication } from 'pixi.js';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import type { ImageStore } from '../frames/image-store.ts';
import type { SliceCursor } from '../frames/slice-cursor.ts';
import type { CutAngleStore } from '../lmode/cut-angle.ts';
import type { PageLmode } from '../lmode/page-lmode.ts';
import { CutLine } from '../lmode/cut-line.tsx';
import { useActiveToolStore } from '../tools/active-tool.tsx';
import type { BrightnessContrastStore } from '../view/brightness-contrast.ts';
import { PanelController, type PanelKind } from './panel-controller.ts';
import { PANEL_DISPLAY_BAR_PX, PanelDisplayBar } from './panel-display-bar.tsx';
import { holdPixiSystemTicker } from './pixi-system-ticker.ts';
import type { PanelViewportSource } from '../view/view-transform.ts';

export interface ImagePanelProps {
  kind: PanelKind;
  label: string;
  widthPercent: number;
  store: ImageStore;
  /** The review's slice cursor, through which the panel's input moves the slice. */
  cursor: SliceCursor;
  /** This panel's own brightness and contrast: its tool drag, its header's values and Reset. */
  display: BrightnessContrastStore;
  onDragChange?: ((dragging: boolean) => void) | undefined;
  /**
   * A DOM layer over the image (annotations, markers), told where the image is. It sits inside the
   * element that takes the panel's pointer and wheel input, so what it does not handle reaches the panel.
   */
  overlay?: ((viewport: PanelViewportSource) => ReactNode) | undefined;
  /** False keeps the panel without its WebGL context for now (the review starts the B-mode's first). */
  startGpu?: boolean | undefined;
  onFirstImage?: (() => void) | undefined;
  /** The L-mode cut angle: the L-mode panel samples along it, the B-mode panel draws and turns it. */
  cutAngle?: CutAngleStore | undefined;
  /** The L-mode panel's image when it is shared with another view; the panel builds its own otherwise. */
  lmode?: PageLmode | undefined;
}

/**
 * One GPU panel. @pixi/react owns the canvas and the Application's life (init, and destroy on
 * unmount, which also loses the WebGL context); the scene itself is driven by PanelController
 * outside React, because a slice change must redraw without a React render.
 */
export function ImagePanel({ kind, label, widthPercent, store, cursor, display, onDragChange, overlay, startGpu = true, onFirstImage, cutAngle, lmode }: ImagePanelProps) {
  const tools = useActiveToolStore();
  const [controller] = useState(() => new PanelController(kind, store, cursor, display, cutAngle, lmode));
  const surfaceRef = useRef<HTMLDivElement>(null);
  const appRef = useRef<ApplicationRef>(null);

  useLayoutEffect(() => {
    controller.setDragListener(onDragChange);
    controller.setFirstImageListener(onFirstImage);
  }, [controller, onDragChange, onFirstImage]);

  useEffect(() => {
    const surface = surfaceRef.current;
    return surface ? controller.connect(surface, tools) : undefined;
  }, [controller, tools]);

  // The canvas exists before the Application is initialised: tag it at once for tests.
  useLayoutEffect(() => {
    appRef.current?.getCanvas()?.setAttribute('data-testid', `panel-canvas-${kind}`);
    if (startGpu) performance.mark(`ivus:${kind}-gpu-start`);
  }, [kind, startGpu]);

  // Before the Application's (asynchronous) init: its renderer's scheduler would otherwise start
  // pixi's system ticker, a frame-rate loop that draws nothing (pixi-system-ticker.ts).
  useLayoutEffect(() => (startGpu ? holdPixiSystemTicker() : undefined), [startGpu]);

  const cursorLineRef = useCallback((element: HTMLDivElement | null) => controller.setCursorElement(element), [controller]);
  const onInit = useCallback((app: PixiApplication) => controller.attach(app), [controller]);

  return (
    <Box
      as="section"
      aria-label={`${label} panel`}
      data-panel={kind}
      flex={`0 0 ${widthPercent}%`}
      minWidth="0"
      position="relative"
      bg="black"
      // No rounded corners: clipping a WebGL canvas to them costs an extra compositing pass per frame.
      overflow="hidden"
    >
      <PanelDisplayBar label={label} display={display} testId={`panel-display-${kind}`} />
      {/* The image and everything over it start below the header bar. */}
      <Box ref={surfaceRef} position="absolute" inset="0" top={`${PANEL_DISPLAY_BAR_PX}px`} touchAction="none" css={{ '& > canvas': { display: 'block', position: 'absolute', inset: 0 } }}>
        {startGpu ? (
        <Application
          ref={appRef}
          onInit={onInit}
          preference="webgl"
          // Not pixi's browser extensions (pointer events, accessibility, DOM, filters): the panel
          // handles its input on the DOM. Pixi's event system ran a ticker every animation frame
          // and listened to every pointer move on the page; loading it cost a round trip at start.
          skipExtensionImports
          autoStart={false}
          sharedTicker={false}
          background="#000000"
          antialias={false}
          autoDensity
          resolution={globalThis.devicePixelRatio || 1}
        />
        ) : null}
        {overlay?.(controller)}
        {kind === 'bmode' && cutAngle ? <CutLine viewport={controller} cutAngle={cutAngle} /> : null}
      </Box>
      {kind === 'lmode' && (
        <Box
          ref={cursorLineRef}
          data-testid="lmode-cursor"
          aria-hidden
          position="absolute"
          top={`${PANEL_DISPLAY_BAR_PX}px`}
          left="-1px"
          width="2px"
          bg="#ffe411"
          pointerEvents="none"
          willChange="transform"
          visibility="hidden"
        />
      )}
    </Box>
  );
}
