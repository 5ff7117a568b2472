import type { Locator, Page } from '@playwright/test';

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

/** The B-mode borders' colours as the panel draws them (src/domain/constants.ts). */
export const BORDER_COLORS = { lumen: '#9cc5c6', vessel: '#f4a259' } as const;

/**
 * Where on the page the canvas shows any of `colors` (within `tolerance` levels a channel), read from
 * a screenshot of the image alone: the borders are drawn in the panels' WebGL scenes (issue 27), so
 * their geometry is found in the pixels, not in the DOM. The image is gray: no pixel of it matches.
 * A line drawn less than opaque (the calcium arc, 0.85) takes up to 15% of the gray under it: ±40.
 */
export async function pixelsOfColors(page: Page, canvas: Locator, colors: readonly string[], tolerance = 6): Promise<{ x: number; y: number }[]> {
  const box = (await canvas.boundingBox())!;
  const png = await canvas.screenshot({ style: IMAGE_ONLY_STYLE });
  const rgb = colors.map((c) => [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)));
  return page.evaluate(
    async ({ base64, rgb, box, tolerance }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${base64}`;
      await image.decode();
      const context = new OffscreenCanvas(image.width, image.height).getContext('2d')!;
      context.drawImage(image, 0, 0);
      const { data } = context.getImageData(0, 0, image.width, image.height);
      const points: { x: number; y: number }[] = [];
      for (let i = 0; i < data.length / 4; i++) {
        const matches = rgb.some(([r, g, b]) => Math.abs(data[i * 4]! - r!) <= tolerance && Math.abs(data[i * 4 + 1]! - g!) <= tolerance && Math.abs(data[i * 4 + 2]! - b!) <= tolerance);
        if (matches) points.push({ x: box.x + ((i % image.width) + 0.5) * (box.width / image.width), y: box.y + (Math.floor(i / image.width) + 0.5) * (box.height / image.height) });
      }
      return points;
    },
    { base64: png.toString('base64'), rgb, box, tolerance },
  );
}
