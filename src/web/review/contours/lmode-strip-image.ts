import type { LmodeImage } from '../lmode/lmode-image.ts';
import { brightnessContrastLookup, DEFAULT_BRIGHTNESS_CONTRAST, type BrightnessContrast } from '../view/brightness-contrast.ts';
import type { ViewTransform } from '../view/view-transform.ts';

/**
 * The L-mode image drawn into a strip of `width` x `height` CSS pixels under `transform` (image to
 * strip), nearest sample per pixel: the strip shows a 3,600-frame L-mode in a few hundred thousand
 * pixels, so it is sampled down here rather than uploaded whole. Columns outside the image are clear.
 * Gray levels go through the L-mode panel's brightness and contrast, as the panel's shader maps them:
 * the strip and the panel show one image.
 */
export function stripImageData(
  image: LmodeImage,
  transform: ViewTransform,
  width: number,
  height: number,
  display: BrightnessContrast = DEFAULT_BRIGHTNESS_CONTRAST,
  /** The gated L-mode (issue 28): each frame's column drawn from the column given here (gated-analysis.ts). */
  columns?: Int32Array,
): ImageData {
  const levels = brightnessContrastLookup(display);
  const out = new ImageData(Math.max(1, width), Math.max(1, height));
  const rows = Int32Array.from({ length: out.height }, (_, y) => Math.min(image.height - 1, Math.max(0, Math.floor((y + 0.5 - transform.y) / transform.scaleY))));
  for (let x = 0; x < out.width; x++) {
    const shown = Math.floor((x + 0.5 - transform.x) / transform.scaleX);
    if (shown < 0 || shown >= image.width) continue;
    const column = columns?.[shown] ?? shown;
    for (let y = 0; y < out.height; y++) {
      const grey = levels[image.data[rows[y]! * image.width + column]!]!;
      const at = (y * out.width + x) * 4;
      out.data[at] = grey;
      out.data[at + 1] = grey;
      out.data[at + 2] = grey;
      out.data[at + 3] = 255;
    }
  }
  return out;
}

/** Millimetre tick spacing along the strip: the smallest of 1, 2, 5, 10, 20 mm that leaves `minGapPx` between labels. */
export function tickStepMm(pxPerMm: number, minGapPx = 48): number {
  return [1, 2, 5, 10, 20, 50].find((step) => step * pxPerMm >= minGapPx) ?? 100;
}
