import { createContext, use, useSyncExternalStore } from 'react';

/** Shows or hides the lumen and vessel borders on the B-mode image; no tool uses it (R A T G B C, N, Space are taken). */
export const BORDERS_SHORTCUT = 'O';

/**
 * Whether the borders are drawn on the B-mode image, whatever the tool (issue 26: they showed only
 * inside the contour tool). On by default: once detected, the borders are what the clinician checks.
 */
export interface BordersVisibility {
  readonly get: () => boolean;
  readonly toggle: () => void;
  readonly subscribe: (listener: () => void) => () => void;
}

export function createBordersVisibility(initial = true): BordersVisibility {
  let shown = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => shown,
    toggle: () => {
      shown = !shown;
      listeners.forEach((listener) => listener());
    },
    subscribe: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

export const BordersVisibilityContext = createContext<BordersVisibility | null>(null);

/** Where no panel provides a store (a contour layer on its own): the borders show, and the switch changes nothing. */
const ALWAYS_SHOWN: BordersVisibility = { get: () => true, toggle: () => {}, subscribe: () => () => {} };

/** The B-mode panel's visibility store. */
export function useBordersVisibility(): BordersVisibility {
  return use(BordersVisibilityContext) ?? ALWAYS_SHOWN;
}

export function useBordersShown(): boolean {
  const visibility = useBordersVisibility();
  return useSyncExternalStore(visibility.subscribe, visibility.get);
}
