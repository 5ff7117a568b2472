/** Issue 26: the L-mode strip above the plot shows the L-mode with the L-mode panel's brightness and contrast. */
import { beforeAll, describe, expect, it } from 'vitest';
import { stripImageData } from '../../../../src/web/review/contours/lmode-strip-image.ts';
import { LmodeImage } from '../../../../src/web/review/lmode/lmode-image.ts';
import { brightnessContrastLookup, DEFAULT_BRIGHTNESS_CONTRAST } from '../../../../src/web/review/view/brightness-contrast.ts';

beforeAll(() => {
  // jsdom has no canvas: the strip only fills ImageData's bytes, which this stand-in holds.
  globalThis.ImageData ??= class {
    readonly width: number;
    readonly height: number;
    readonly data: Uint8ClampedArray;
    constructor(width: number, height: number) {
      this.width = width;
      this.height = height;
      this.data = new Uint8ClampedArray(width * height * 4);
    }
  } as unknown as typeof ImageData;
});

/** A 4-column L-mode whose gray levels run 0, 60, 120, … down and across. */
function lmode(): LmodeImage {
  const image = new LmodeImage(32, 32, 4, 0);
  for (let i = 0; i < image.data.length; i++) image.data[i] = (i * 60) % 256;
  return image;
}

const grays = (out: ImageData) => Array.from({ length: out.width * out.height }, (_, i) => out.data[i * 4]!);
const oneToOne = { scaleX: 1, scaleY: 1, x: 0, y: 0 };

describe('the L-mode strip’s image', () => {
  it('shows the L-mode’s own gray levels at default brightness and contrast', () => {
    const image = lmode();
    const out = stripImageData(image, oneToOne, image.width, image.height, DEFAULT_BRIGHTNESS_CONTRAST);
    expect(grays(out)).toEqual(Array.from(image.data));
  });

  it('maps every gray level through the L-mode panel’s brightness and contrast, as the panel’s shader does', () => {
    const image = lmode();
    const display = { brightness: 0.2, contrast: 1.8 };
    const out = stripImageData(image, oneToOne, image.width, image.height, display);
    const levels = brightnessContrastLookup(display);
    expect(grays(out)).toEqual(Array.from(image.data, (v) => levels[v]));
    expect(grays(out)).not.toEqual(Array.from(image.data));
  });
});

describe('the gated L-mode strip (issue 28)', () => {
  it('draws each column from its gated frame’s column: only gated frames, each stretched over its cycle', () => {
    const image = lmode();
    const out = stripImageData(image, oneToOne, image.width, image.height, DEFAULT_BRIGHTNESS_CONTRAST, Int32Array.from([1, 1, 3, 3]));
    const column = (x: number) => Array.from({ length: image.height }, (_, y) => grays(out)[y * image.width + x]);
    const source = (x: number) => Array.from({ length: image.height }, (_, y) => image.data[y * image.width + x]);
    expect(column(0)).toEqual(source(1));
    expect(column(1)).toEqual(source(1));
    expect(column(2)).toEqual(source(3));
    expect(column(3)).toEqual(source(3));
  });
});
