import type { Locator, Page } from '@playwright/test';

/** The gray levels a canvas shows (its red channel), read from a screenshot of it. */
/** What hides everything in the panels but their canvases, for a screenshot of the image alone. */
const IMAGE_ONLY_STYLE = '[data-panel] * { visibility: hidden !important; } [data-panel] canvas { visibility: visible !important; }';

/**
 * The gray levels of the canvas as the screen shows it; `imageOnly` leaves out what the page draws
 * over it (borders, readout, cards, scale bar, cursor lines), which a hover or a late arrival changes.
 */
export async function grayLevels(page: Page, canvas: Locator, { imageOnly = false } = {}): Promise<number[]> {
  const png = await canvas.screenshot(imageOnly ? { style: IMAGE_ONLY_STYLE } : {});
  return page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const context = new OffscreenCanvas(image.width, image.height).getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    return Array.from({ length: data.length / 4 }, (_, i) => data[i * 4]!);
  }, png.toString('base64'));
}

/** Mean and spread of gray levels: a spread near 0 is a black or uniform panel. */
export function grayStats(values: readonly number[]): { mean: number; std: number } {
  const mean = values.reduce((sum, v) => sum + v, 0) / values.length;
  return { mean, std: Math.sqrt(values.reduce((sum, v) => sum + (v - mean) ** 2, 0) / values.length) };
}

export async function canvasStats(page: Page, canvas: Locator): Promise<{ mean: number; std: number }> {
  return grayStats(await grayLevels(page, canvas));
}

/** The mean absolute difference of two same-size screenshots' gray levels (Infinity if the sizes differ). */
export function meanDifference(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) return Infinity;
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}
