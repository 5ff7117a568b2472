import { createContext, use, useLayoutEffect, useSyncExternalStore } from 'react';
import type { Rect } from './readout-placement.ts';

/**
 * The boxes on the B-mode frame, by name, in the panel's screen pixels: the figures readout and
 * the contour card (each where its placement put it), the scale bar and the L-mode cut line's
 * handle. The readout and the card are placed in their own components, the annotation cards in
 * another (issue 26, item 7: tools collide); each publishes its box here so the annotation cards
 * keep clear of them all, and the readout of the cut handle.
 */
export interface FrameBoxes {
  readonly get: () => Readonly<Record<string, Rect>>;
  /** A box where it now is, or null once it is gone. */
  readonly set: (name: string, rect: Rect | null) => void;
  readonly subscribe: (listener: () => void) => () => void;
}

const sameRect = (a: Rect | undefined, b: Rect | null) => (a === undefined ? b === null : b !== null && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height);

export function createFrameBoxes(): FrameBoxes {
  let boxes: Readonly<Record<string, Rect>> = {};
  const listeners = new Set<() => void>();
  return {
    get: () => boxes,
    set: (name, rect) => {
      // A box that did not move changes nothing: no card is placed again.
      if (sameRect(boxes[name], rect)) return;
      const next = { ...boxes };
      if (rect) next[name] = rect;
      else delete next[name];
      boxes = next;
      listeners.forEach((listener) => listener());
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const FrameBoxesContext = createContext<FrameBoxes | null>(null);

const NONE: Readonly<Record<string, Rect>> = {};
const NO_BOXES: FrameBoxes = { get: () => NONE, set: () => {}, subscribe: () => () => {} };

/** The frame's boxes (none outside an IVUS B-mode panel). */
export function useFrameBoxes(): Readonly<Record<string, Rect>> {
  const boxes = use(FrameBoxesContext) ?? NO_BOXES;
  return useSyncExternalStore(boxes.subscribe, boxes.get);
}

/** Publishes a box under `name` while the component is mounted, where it is now. */
export function usePublishedBox(name: string, rect: Rect | null): void {
  const boxes = use(FrameBoxesContext);
  const { x, y, width, height } = rect ?? { x: 0, y: 0, width: 0, height: 0 };
  const present = rect !== null;
  useLayoutEffect(() => {
    boxes?.set(name, present ? { x, y, width, height } : null);
  }, [boxes, name, present, x, y, width, height]);
  useLayoutEffect(() => () => boxes?.set(name, null), [boxes, name]);
}
