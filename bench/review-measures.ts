/**
 * What bench:review measures the same way on the review and on the raw WebGL2 page
 * (bench/raw-webgl-page.ts): slice change latency, painted playback, and the raw page itself
 * (loaded, scrubbed, its cine played), so that every review figure has its baseline in the same run.
 */
import type { Page } from '@playwright/test';
import { launchChromium } from './browser-bench.ts';
import { chromiumMemoryBytes } from './chromium-memory.ts';
import { rawWebglPage, type TextureStrategy } from './raw-webgl-page.ts';

export const SCRUB_STEPS = 200;
/** How long playback is watched, each time. */
export const PLAYBACK_MS = 3000;

export const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

/** In the page: time from a key press to the canvas showing the next slice (its data-drawn-slice), per step. */
export async function scrubLatencies(page: Page, canvasSelector: string, steps = SCRUB_STEPS): Promise<number[]> {
  return page.evaluate(
    async ({ selector, count }) => {
      const canvas = document.querySelector(selector) as HTMLCanvasElement;
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const latencies: number[] = [];
      for (let i = 0; i < count; i++) {
        const expected = String(Number(canvas.dataset.drawnSlice) + 1);
        const start = performance.now();
        window.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
        while (canvas.dataset.drawnSlice !== expected && performance.now() - start < 2000) await new Promise((resolve) => setTimeout(resolve, 0));
        latencies.push(performance.now() - start);
        await frame();
      }
      return latencies;
    },
    { selector: canvasSelector, count: steps },
  );
}

export interface PlaybackFigures {
  /** Animation frames in which the canvas showed a new slice, per second. */
  fps: number;
  /** Animation frames the browser ran, per second (what the page left the display). */
  framesPerSecond: number;
}

/** Which playback: the review's Play and Pause buttons (as a clinician would), or the raw page's cine. */
export type PlaybackKind = 'review' | 'raw';

/**
 * In the page: starts playback, counts the animation frames in which the canvas shows a new slice
 * for PLAYBACK_MS, then stops it. The same count on both pages.
 */
export async function paintedPlayback(page: Page, kind: PlaybackKind): Promise<PlaybackFigures> {
  if (kind === 'review') {
    await page.keyboard.press('Home');
    await page.getByTestId('slice-indicator').filter({ hasText: /^Slice 1 \// }).waitFor();
  } else {
    await page.evaluate(() => (window as unknown as { drawSlice: (s: number) => void }).drawSlice(1));
  }
  return page.evaluate(
    async ({ ms, review }) => {
      const canvas = document.querySelector(review ? '[data-testid="panel-canvas-bmode"]' : '#c') as HTMLCanvasElement;
      const cine = window as unknown as { playCine: () => void; stopCine: () => void };
      const button = (label: string) => document.querySelector(`button[aria-label="${label}"]`) as HTMLButtonElement;
      if (review) button('Play').click();
      else cine.playCine();
      const begin = performance.now();
      let painted = 0;
      let frames = 0;
      let last = canvas.dataset.drawnSlice;
      while (performance.now() - begin < ms) {
        await new Promise((resolve) => requestAnimationFrame(resolve));
        frames++;
        if (canvas.dataset.drawnSlice !== last) painted++;
        last = canvas.dataset.drawnSlice;
      }
      const seconds = (performance.now() - begin) / 1000;
      if (review) button('Pause').click();
      else cine.stopCine();
      return { fps: painted / seconds, framesPerSecond: frames / seconds };
    },
    { ms: PLAYBACK_MS, review: kind === 'review' },
  );
}

export interface RawPageFigures {
  firstFrame: number;
  allLoaded: number;
  scrub: number[];
  playback: PlaybackFigures;
  lmode: number[];
  memory: number;
  /** CPU seconds the browsers used during the cine, when measureRawPage was given a CPU clock. */
  playbackCpuSeconds: number | null;
}

export interface RawPageRecord {
  origin: string;
  recordId: string;
  /** The clinician's `Bearer …` header, read from the signed-in review. */
  authorization: string;
  frames: number;
  /** Cut angles the L-mode is recomputed at ('single' only; 0 skips it). */
  lmodeTurns: number;
}

/** One raw WebGL2 page (same origin, same frames) in its own browser: load everything, scrub, play its cine. */
export async function measureRawPage(strategy: TextureStrategy, record: RawPageRecord, cpuSeconds?: () => number): Promise<RawPageFigures> {
  // Its own browser: memory freed late by the pages before would otherwise be counted off its own.
  const rawBrowser = await launchChromium(['--js-flags=--expose-gc']);
  try {
    // The server's CSP (script-src 'self', on every answer since c612515) would block the page's inline script.
    const raw = await (await rawBrowser.newContext({ viewport: { width: 1600, height: 900 }, bypassCSP: true })).newPage();
    // A same-origin HTML document without the app, for the baseline to live in.
    await raw.goto(`${record.origin}/healthz`);
    const memoryBefore = chromiumMemoryBytes();
    await raw.setContent(rawWebglPage(strategy));
    const times = await raw.evaluate(
      async ({ id, authorization, frames }) => {
        const urls = Array.from({ length: Math.ceil(frames / 16) }, (_, i) => `/api/demo/records/${id}/frames/bmode/${i}?v=v1`);
        const start = performance.now();
        const w = window as unknown as { loadFrames: (...a: unknown[]) => Promise<void>; drawSlice: (s: number) => void; rawState: { slice: number } };
        let first = 0;
        const canvas = document.getElementById('c')!;
        const watch = () => (canvas.dataset.drawnSlice ? (first = performance.now() - start) : requestAnimationFrame(watch));
        requestAnimationFrame(watch);
        await w.loadFrames(urls, frames, 512, 512, authorization);
        // Like any renderer, draw on the next animation frame, not inside the input handler.
        window.addEventListener('keydown', () => requestAnimationFrame(() => w.drawSlice(w.rawState.slice + 1)));
        return { firstFrame: first, allLoaded: performance.now() - start, glError: (w.rawState as unknown as { glError: number }).glError };
      },
      { id: record.recordId, authorization: record.authorization, frames: record.frames },
    );
    await raw.evaluate(() => (globalThis as unknown as { gc?: () => void }).gc?.());
    await raw.waitForTimeout(1000);
    const memoryAfter = chromiumMemoryBytes();
    if (times.glError) throw new Error(`the raw '${strategy}' page failed: WebGL error ${times.glError}`);
    const scrub = await scrubLatencies(raw, '#c');
    const cpuBefore = cpuSeconds?.() ?? 0;
    const playback = await paintedPlayback(raw, 'raw');
    const playbackCpuSeconds = cpuSeconds ? cpuSeconds() - cpuBefore : null;
    const lmode =
      strategy === 'single' && record.lmodeTurns > 0
        ? await raw.evaluate(
            ({ turns, count }) => {
              const w = window as unknown as { lmodeRecompute: (angleRad: number, count: number) => number };
              return Array.from({ length: turns }, (_, i) => w.lmodeRecompute(((91 + i) * Math.PI) / 180, count));
            },
            { turns: record.lmodeTurns, count: record.frames },
          )
        : [];
    return { ...times, scrub, playback, lmode, memory: memoryAfter - memoryBefore, playbackCpuSeconds };
  } finally {
    await rawBrowser.close();
  }
}

/** The signed-in review's `Bearer …` header (the raw page asks for the same frames with it). */
export function bearerToken(page: Page): Promise<string> {
  return page.evaluate(() => {
    for (let i = 0; i < sessionStorage.length; i++) {
      const key = sessionStorage.key(i)!;
      if (key.startsWith('oidc.user:')) return `Bearer ${JSON.parse(sessionStorage.getItem(key)!).id_token}`;
    }
    return '';
  });
}

/** In the review: turns the cut line by 1° at a time and reads each recompute's User Timing measure. */
export async function lmodeRecomputeTimes(page: Page, turns: number): Promise<number[]> {
  return page.evaluate(async (count) => {
    const handle = document.querySelector('[data-testid="lmode-cut-handle"]') as HTMLElement;
    const measures = () => performance.getEntriesByName('ivus:lmode-recompute');
    const times: number[] = [];
    for (let i = 0; i < count; i++) {
      const seen = measures().length;
      const start = performance.now();
      handle.dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowRight', bubbles: true }));
      while (measures().length === seen && performance.now() - start < 5000) await new Promise((resolve) => setTimeout(resolve, 0));
      times.push(measures().at(-1)?.duration ?? Number.NaN);
      await new Promise((resolve) => requestAnimationFrame(resolve));
    }
    return times;
  }, turns);
}

/** The review's painted playback and the browser CPU (all Chromium processes) each painted frame cost, in ms. */
export async function reviewPlaybackCpu(page: Page, cpuSeconds: () => number): Promise<PlaybackFigures & { cpuMsPerPainted: number }> {
  const before = cpuSeconds();
  const playback = await paintedPlayback(page, 'review');
  return { ...playback, cpuMsPerPainted: ((cpuSeconds() - before) * 1000) / (playback.fps * (PLAYBACK_MS / 1000)) };
}
