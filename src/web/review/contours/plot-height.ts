import { useCallback, useState } from 'react';

/**
 * The pullback plot's height (issue 26: ~100 px could not be read). By default a fifth of the window
 * and a little more, so that on a reading-room monitor the curve is read at a glance; the clinician
 * may resize it (plot-resize-handle.tsx), and the height is remembered per user in this browser.
 */
export const PLOT_HEIGHT_FRACTION = 0.22;
/** Below this the axis labels and the curves no longer fit. */
export const MIN_PLOT_HEIGHT_PX = 120;
/** The plot may take at most this fraction of the window: the panels above keep their room. */
export const MAX_PLOT_HEIGHT_FRACTION = 0.6;

/** localStorage key of a user's plot height; per user, since two clinicians may share a reading-room browser. */
export const plotHeightKey = (user: string) => `ivus.plotHeight.${user}`;

/** The plot height for a window of `viewportHeight` px: the remembered one (or the default) kept between min and max. */
export function clampPlotHeight(height: number, viewportHeight: number): number {
  const max = Math.max(MIN_PLOT_HEIGHT_PX, Math.round(MAX_PLOT_HEIGHT_FRACTION * viewportHeight));
  return Math.round(Math.min(max, Math.max(MIN_PLOT_HEIGHT_PX, height)));
}

export function defaultPlotHeight(viewportHeight: number): number {
  return clampPlotHeight(PLOT_HEIGHT_FRACTION * viewportHeight, viewportHeight);
}

function storedHeight(key: string): number | null {
  try {
    const value = Number(localStorage.getItem(key));
    return Number.isFinite(value) && value > 0 ? value : null;
  } catch {
    // Storage can be blocked (privacy settings): the height is then not remembered.
    return null;
  }
}

/**
 * The plot height for `user` (an email; null before sign-in is known) and its setter, which
 * remembers it. Clamped to the window's height at every render: a height chosen on the monitor is
 * not carried whole onto a laptop.
 */
export function usePlotHeight(user: string | null): [number, (height: number) => void] {
  const viewportHeight = typeof window === 'undefined' ? 768 : window.innerHeight;
  const key = user ? plotHeightKey(user) : null;
  const [chosen, setChosen] = useState<number | null>(() => (key ? storedHeight(key) : null));
  const set = useCallback(
    (height: number) => {
      const clamped = clampPlotHeight(height, window.innerHeight);
      setChosen(clamped);
      if (!key) return;
      try {
        localStorage.setItem(key, String(clamped));
      } catch {
        // Not remembered when storage is blocked; the resize still holds for this page.
      }
    },
    [key],
  );
  return [chosen === null ? defaultPlotHeight(viewportHeight) : clampPlotHeight(chosen, viewportHeight), set];
}
