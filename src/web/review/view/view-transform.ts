import type { ImagePoint } from '../../../domain/image-point.ts';

export type { ImagePoint } from '../../../domain/image-point.ts';

/**
 * Where a panel draws its image: fitted to the panel, then zoomed and panned by the user.
 * Screen coordinates are CSS pixels from the panel's top-left corner; image coordinates are
 * image pixels from the image's top-left corner.
 */
export interface Size {
  readonly width: number;
  readonly height: number;
}
export interface Point {
  readonly x: number;
  readonly y: number;
}

declare const screenSpace: unique symbol;
/**
 * A point in CSS pixels from the panel's top-left corner. Branded, like `ImagePoint`, so that a
 * pointer position cannot be taken for an image position (they agree only at zoom 1 with no pan,
 * which is why mixing them up went unnoticed); tools/tool-input.ts makes them from DOM events.
 */
export type ScreenPoint = { readonly x: number; readonly y: number; readonly [screenSpace]: true };

export function screenPoint(x: number, y: number): ScreenPoint {
  return { x, y } as ScreenPoint;
}
/** The user's part: zoom factor over the fit, and pan in screen pixels from the centred position. */
export interface ViewState {
  readonly zoom: number;
  readonly panX: number;
  readonly panY: number;
}
/** screen = image * scale + offset, per axis. */
export interface ViewTransform {
  readonly scaleX: number;
  readonly scaleY: number;
  readonly x: number;
  readonly y: number;
}
/**
 * 'contain' keeps the image's aspect ratio; 'stretch' fills the panel, for images whose axes
 * have no common unit (the L-mode's columns are frames, its rows pixels).
 */
export type FitMode = 'contain' | 'stretch';

/** Where a panel's image is on screen, for DOM layers drawn over it (annotations, cards, markers). */
export interface PanelViewport {
  readonly transform: ViewTransform;
  /** Image pixels. */
  readonly imageSize: Size;
  /** CSS pixels of the panel. */
  readonly viewportSize: Size;
}

export interface PanelViewportSource {
  subscribe(listener: () => void): () => void;
  getViewport(): PanelViewport | null;
}

export const DEFAULT_VIEW: ViewState = { zoom: 1, panX: 0, panY: 0 };
export const MIN_ZOOM = 0.5;
export const MAX_ZOOM = 20;

function fitScale(image: Size, viewport: Size, mode: FitMode): { scaleX: number; scaleY: number } {
  if (image.width <= 0 || image.height <= 0) return { scaleX: 1, scaleY: 1 };
  const scaleX = viewport.width / image.width;
  const scaleY = viewport.height / image.height;
  if (mode === 'stretch') return { scaleX, scaleY };
  const scale = Math.min(scaleX, scaleY);
  return { scaleX: scale, scaleY: scale };
}

export function viewTransform(image: Size, viewport: Size, view: ViewState, mode: FitMode): ViewTransform {
  const fit = fitScale(image, viewport, mode);
  const scaleX = fit.scaleX * view.zoom;
  const scaleY = fit.scaleY * view.zoom;
  return {
    scaleX,
    scaleY,
    x: (viewport.width - image.width * scaleX) / 2 + view.panX,
    y: (viewport.height - image.height * scaleY) / 2 + view.panY,
  };
}

export function screenToImage(transform: ViewTransform, point: ScreenPoint): ImagePoint {
  return { x: (point.x - transform.x) / transform.scaleX, y: (point.y - transform.y) / transform.scaleY } as ImagePoint;
}

/** `point` in image pixels (an `ImagePoint`, or a point of a stored annotation or contour, which are kept in image pixels). */
export function imageToScreen(transform: ViewTransform, point: ImagePoint | Point): ScreenPoint {
  return screenPoint(point.x * transform.scaleX + transform.x, point.y * transform.scaleY + transform.y);
}

/**
 * A distance on screen (a hit radius, a drag threshold) in image pixels: what stays constant on
 * screen at any zoom. Measured along x, as the B-mode's fit keeps both axes at one scale.
 */
export function screenLengthToImage(transform: ViewTransform, lengthPx: number): number {
  return lengthPx / transform.scaleX;
}

/** Zooms by `factor` keeping the image point under `point` (screen) where it is. */
export function zoomAt(view: ViewState, image: Size, viewport: Size, mode: FitMode, point: ScreenPoint, factor: number): ViewState {
  const zoom = Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, view.zoom * factor));
  const anchor = screenToImage(viewTransform(image, viewport, view, mode), point);
  const centred = viewTransform(image, viewport, { zoom, panX: 0, panY: 0 }, mode);
  return {
    zoom,
    panX: point.x - anchor.x * centred.scaleX - centred.x,
    panY: point.y - anchor.y * centred.scaleY - centred.y,
  };
}

export function panBy(view: ViewState, dx: number, dy: number): ViewState {
  return { ...view, panX: view.panX + dx, panY: view.panY + dy };
}

/** Ctrl+wheel zoom: a 100 px notch zooms by about 22 %, smooth for trackpads' small deltas. */
export function wheelZoomFactor(deltaY: number): number {
  return Math.exp(-deltaY * 0.002);
}
