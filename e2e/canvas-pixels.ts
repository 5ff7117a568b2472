import type { Locator } from '@playwright/test';
import { PNG } from 'pngjs';

/** What hides everything in the panels but their canvases, for a screenshot of the image alone. */
const IMAGE_ONLY_STYLE = '[data-panel] * { visibility: hidden !important; } [data-panel] canvas { visibility: visible !important; }';

/**
 * The gray levels of the canvas as the screen shows it; `imageOnly` leaves out what the page draws
 * over it (borders, readout, cards, scale bar, cursor lines), which a hover or a late arrival changes.
 * The screenshot is decoded here, not in the page: an array of 0.9 M levels sent back from the page
 * took 6.5 s at 2560×1440 (0.6 s this way, the same levels).
 */
export async function grayLevels(canvas: Locator, { imageOnly = false } = {}): Promise<number[]> {
  const { data, width, height } = PNG.sync.read(await canvas.screenshot(imageOnly ? { style: IMAGE_ONLY_STYLE } : {}));
  return Array.from({ length: width * height }, (_, i) => data[i * 4]!);
}

/** Mean and spread of gray levels: a spread near 0 is a black or uniform panel. */
export function grayStats(values: readonly number[]): { mean: number; std: number } {
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return { mean, std: Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length) };
}

export async function canvasStats(canvas: Locator): Promise<{ mean: number; std: number }> {
  return grayStats(await grayLevels(canvas));
}

/** The mean absolute difference of two same-size screenshots' gray levels (Infinity if the sizes differ). */
export function meanDifference(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return Infinity;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** The B-mode borders' colours as the panel draws them (src/domain/constants.ts). */
export const BORDER_COLORS = { lumen: '#9cc5c6', vessel: '#f4a259' } as const;

/**
 * Where on the page the canvas shows any of `colors` (within `tolerance` levels a channel), read from
 * a screenshot of the image alone: the borders are drawn in the panels' WebGL scenes (issue 27), so
 * their geometry is found in the pixels, not in the DOM. The image is gray: no pixel of it matches.
 * A line drawn less than opaque (the calcium arc, 0.85) takes up to 15% of the gray under it: ±40.
 */
export async function pixelsOfColors(canvas: Locator, colors: readonly string[], tolerance = 6): Promise<{ x: number; y: number }[]> {
  const box = (await canvas.boundingBox())!;
  const { data, width, height } = PNG.sync.read(await canvas.screenshot({ style: IMAGE_ONLY_STYLE }));
  const rgb = colors.map((c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)));
  const points: { x: number; y: number }[] = [];
  for (let i = 0; i < width * height; i++) {
    const matches = rgb.some(([r, g, b]) => Math.abs(data[i * 4]! - r!) <= tolerance && Math.abs(data[i * 4 + 1]! - g!) <= tolerance && Math.abs(data[i * 4 + 2]! - b!) <= tolerance);
    if (matches) points.push({ x: box.x + ((i % width) + 0.5) * (box.width / width), y: box.y + (Math.floor(i / width) + 0.5) * (box.height / height) });
  }
  return points;
}
