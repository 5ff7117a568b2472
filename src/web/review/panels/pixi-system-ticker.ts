import { Ticker } from 'pixi.js';

/**
 * Pixi's system ticker, at rest while the panels' renderers live (issue 27).
 *
 * Why: every pixi v8 renderer's SchedulerSystem adds itself to `Ticker.system` at init, and that
 * ticker starts itself (autoStart): a requestAnimationFrame loop at display rate for as long as a
 * renderer lives, only to run GCSystem's repeat tasks, whose periods are 30 s by default. The
 * panels draw on demand (their own Application tickers never start), so the loop draws nothing,
 * yet it wakes the main thread every frame during first open, playback and idle.
 *
 * Here the system ticker is stopped for good (autoStart off, so a later renderer's init does not
 * start it again) and updated from a timer once a second while at least one renderer is held:
 * the GC tasks still run, at most a second late; with no renderer left the timer stops too.
 *
 * Nothing else the panels use needs Ticker.system at frame rate: pixi's events, prepare and
 * accessibility extensions are not loaded (skipExtensionImports), there is no video, animated or
 * GIF sprite, and CanvasObserver (only for DOMContainer, which the panels do not use) falls back
 * to Ticker.shared only without ResizeObserver. Resizes are the panels' own (renderer.resize).
 */

/** How often the held system ticker runs: well under GCSystem's 30 s period, and no frame loop. */
export const SYSTEM_TICKER_PERIOD_MS = 1000;

/** What this needs of a pixi Ticker (tests pass their own). */
export type RestingTicker = Pick<Ticker, 'autoStart' | 'started' | 'stop' | 'update'>;

/** Counts the holders of one ticker: the first stops its frame loop and starts the timer, the last stops the timer. */
export function systemTickerRest(ticker: RestingTicker, periodMs = SYSTEM_TICKER_PERIOD_MS): { hold: () => () => void; readonly holders: number } {
  let holders = 0;
  let timer: ReturnType<typeof setInterval> | null = null;
  return {
    get holders() {
      return holders;
    },
    hold() {
      holders++;
      ticker.autoStart = false;
      ticker.stop();
      timer ??= setInterval(() => ticker.update(), periodMs);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        holders--;
        if (holders === 0 && timer !== null) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
  };
}

const pixiSystemTicker = systemTickerRest(Ticker.system);

/**
 * Held by each GPU panel for as long as it has (or is making) a pixi renderer; returns the release.
 * Hold it before the Application's init, so that the renderer's scheduler never starts the loop.
 */
export function holdPixiSystemTicker(): () => void {
  return pixiSystemTicker.hold();
}
