import { screenPoint, screenToImage, type ImagePoint, type ScreenPoint, type ViewTransform } from '../view/view-transform.ts';

/**
 * The one path from the DOM to the review's tools: pointer, wheel, double-click and key events
 * become `ToolInput`, placed both on screen (CSS pixels of the panel, `ScreenPoint`) and on the
 * image (`ImagePoint`, through the panel's current zoom and pan). Every panel and every layer over
 * a panel (annotations, contour points, the cut line's handle) reads its points here, so a screen
 * point can never be used as an image point by mistake, and a tool sees the same events wherever
 * it is used.
 */
export type PointerInputType = 'pointer.down' | 'pointer.move' | 'pointer.up' | 'pointer.cancel';

interface Placed {
  screen: ScreenPoint;
  /** Null while the panel shows no image (nothing to place the point on). */
  image: ImagePoint | null;
}

export type PointerInput = Placed & { type: PointerInputType; pointerId: number; button: number };
export type WheelInput = Placed & { type: 'wheel'; deltaY: number; deltaMode: number; ctrlKey: boolean };
export type DoubleClickInput = Placed & { type: 'double-click' };
export type KeyInput = { type: 'key'; key: string; shiftKey: boolean; ctrlKey: boolean; metaKey: boolean; altKey: boolean };
export type ToolInput = PointerInput | WheelInput | DoubleClickInput | KeyInput;

const POINTER_TYPES: Readonly<Record<string, PointerInputType>> = {
  pointerdown: 'pointer.down',
  pointermove: 'pointer.move',
  pointerup: 'pointer.up',
  pointercancel: 'pointer.cancel',
};

/** Where a pointer event happened on `element`, in the element's CSS pixels. */
export function screenPointOf(element: Element, event: { clientX: number; clientY: number }): ScreenPoint {
  const rect = element.getBoundingClientRect();
  return screenPoint(event.clientX - rect.left, event.clientY - rect.top);
}

/** Where a pointer event happened on the image shown in `element` under `transform`. */
export function imagePointOf(element: Element, event: { clientX: number; clientY: number }, transform: ViewTransform): ImagePoint {
  return screenToImage(transform, screenPointOf(element, event));
}

/** The tool input for a DOM event on `element` (null for an event that is none of the above). */
export function toolInputOf(event: Event, element: Element, transform: ViewTransform | null): ToolInput | null {
  if (event.type === 'keydown') {
    const key = event as KeyboardEvent;
    return { type: 'key', key: key.key, shiftKey: key.shiftKey, ctrlKey: key.ctrlKey, metaKey: key.metaKey, altKey: key.altKey };
  }
  const pointerType = POINTER_TYPES[event.type];
  if (!pointerType && event.type !== 'wheel' && event.type !== 'dblclick') return null;
  const mouse = event as MouseEvent;
  const screen = screenPointOf(element, mouse);
  const placed = { screen, image: transform ? screenToImage(transform, screen) : null };
  if (pointerType) return { type: pointerType, pointerId: (event as PointerEvent).pointerId ?? 0, button: mouse.button, ...placed };
  if (event.type === 'wheel') {
    const wheel = event as WheelEvent;
    return { type: 'wheel', deltaY: wheel.deltaY, deltaMode: wheel.deltaMode, ctrlKey: wheel.ctrlKey, ...placed };
  }
  return { type: 'double-click', ...placed };
}

/**
 * Hands every pointer, wheel and double-click event on `element` to `handle`, translated; the DOM
 * event comes along for what only it can do (preventDefault, pointer capture). `transform` is
 * asked at each event: the view may have been zoomed or panned since the last one.
 * Returns the removal of every listener.
 */
export function listenForToolInput(element: HTMLElement, transform: () => ViewTransform | null, handle: (input: ToolInput, event: Event) => void): () => void {
  const listeners = new AbortController();
  const { signal } = listeners;
  const forward = (event: Event) => {
    const input = toolInputOf(event, element, transform());
    if (input) handle(input, event);
  };
  for (const type of ['pointerdown', 'pointermove', 'pointerup', 'pointercancel', 'dblclick']) element.addEventListener(type, forward, { signal });
  // Not passive: the wheel moves the slice or zooms, and the page must not scroll (or zoom, with Ctrl) as well.
  element.addEventListener('wheel', forward, { passive: false, signal });
  // Middle-button autoscroll and paste would fight the pan.
  element.addEventListener(
    'mousedown',
    (event) => {
      if (event.button === 1) event.preventDefault();
    },
    { signal },
  );
  return () => listeners.abort();
}
