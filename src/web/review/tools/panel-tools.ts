import { createActor } from 'xstate';
import type { BrightnessContrastStore } from '../view/brightness-contrast.ts';
import type { ImagePoint, ScreenPoint, ViewTransform } from '../view/view-transform.ts';
import type { ActiveToolStore } from './active-tool.tsx';
import { brightnessToolMachine } from './brightness-tool.machine.ts';
import { navigateToolMachine } from './navigate-tool.machine.ts';
import { listenForToolInput, type PointerInput, type ToolInput } from './tool-input.ts';

/** What a panel offers its tools: its view to pan, zoom and reset, the slice to move, and its own brightness and contrast. */
export interface PanelToolTarget {
  /** The L-mode: a press picks the slice under the pointer. */
  readonly slicesByPointer: boolean;
  /** The B-mode: the wheel steps through the slices. */
  readonly wheelMovesSlice: boolean;
  /** The view the panel draws with now, or null before it can draw. */
  transform: () => ViewTransform | null;
  panBy: (dx: number, dy: number) => void;
  zoomAt: (at: ScreenPoint, factor: number) => void;
  resetView: () => void;
  sliceAt: (image: ImagePoint) => void;
  stepSlices: (steps: number) => void;
  display: BrightnessContrastStore;
  /** A drag started or ended (automatic playback pauses meanwhile). */
  dragChanged: (dragging: boolean) => void;
}

/**
 * A panel's pointer behaviour: tool input (tool-input.ts) goes to the active tool's machine: the
 * brightness tool's for a primary-button drag while it is active, the navigate tool's otherwise.
 * One drag at a time, held by its pointer until that pointer is released. The panel itself only
 * draws what the machines' events change. Returns the removal of every listener.
 */
export function connectPanelTools(element: HTMLElement, tools: ActiveToolStore, target: PanelToolTarget): () => void {
  const navigate = createActor(navigateToolMachine, { input: { slicesByPointer: target.slicesByPointer, wheelMovesSlice: target.wheelMovesSlice } }).start();
  navigate.on('view.pan', ({ dx, dy }) => target.panBy(dx, dy));
  navigate.on('view.zoom', ({ at, factor }) => target.zoomAt(at, factor));
  navigate.on('view.reset', () => target.resetView());
  navigate.on('slice.at', ({ image }) => target.sliceAt(image));
  navigate.on('slice.step', ({ steps }) => target.stepSlices(steps));
  // The brightness drag goes through its statechart: a click within the drag threshold changes nothing.
  const brightness = createActor(brightnessToolMachine).start();
  brightness.on('brightness.set', ({ value }) => target.display.set(value));

  let drag: { tool: 'navigate' | 'brightness'; pointerId: number } | null = null;
  const endDrag = (input: PointerInput) => {
    if (!drag || drag.pointerId !== input.pointerId) return;
    if (drag.tool === 'brightness') brightness.send({ type: 'pointer.up' });
    else navigate.send(input);
    drag = null;
    target.dragChanged(false);
  };
  const onPointerDown = (input: PointerInput, event: Event) => {
    if (drag) return;
    if (input.button === 0 && tools.get() === 'brightness') {
      drag = { tool: 'brightness', pointerId: input.pointerId };
      brightness.send({ type: 'pointer.down', point: input.screen, start: target.display.get() });
    } else {
      navigate.send(input);
      if (navigate.getSnapshot().matches('idle')) return;
      if (input.button === 1) event.preventDefault();
      drag = { tool: 'navigate', pointerId: input.pointerId };
    }
    element.setPointerCapture?.(input.pointerId);
    target.dragChanged(true);
  };
  const onInput = (input: ToolInput, event: Event) => {
    switch (input.type) {
      case 'pointer.down':
        return onPointerDown(input, event);
      case 'pointer.move':
        if (drag?.pointerId !== input.pointerId) return;
        if (drag.tool === 'brightness') brightness.send({ type: 'pointer.move', point: input.screen });
        else navigate.send(input);
        return;
      case 'pointer.up':
      case 'pointer.cancel':
        return endDrag(input);
      case 'wheel':
        // Ctrl+wheel would zoom the whole page otherwise, and the wheel over the B-mode would scroll it.
        if (input.ctrlKey || target.wheelMovesSlice) event.preventDefault();
        navigate.send(input);
        return;
      case 'double-click':
        if (tools.get() === 'brightness') brightness.send({ type: 'reset' });
        else navigate.send(input);
        return;
      default:
        return;
    }
  };

  const showTool = () => {
    element.style.cursor = tools.get() === 'brightness' ? 'move' : target.slicesByPointer ? 'col-resize' : '';
  };
  showTool();
  const unsubscribeTools = tools.subscribe(showTool);
  const stopInput = listenForToolInput(element, target.transform, onInput);
  return () => {
    stopInput();
    unsubscribeTools();
    navigate.stop();
    brightness.stop();
    if (drag) target.dragChanged(false);
    drag = null;
  };
}
