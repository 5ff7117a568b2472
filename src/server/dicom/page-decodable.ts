/**
 * Which imported frames go to the page as the file holds them (issue 27). The page decodes with
 * the same pure decode and the same WASM libraries as the server (domain/pixels/frame-decode.ts):
 * JPEG 8-bit (libjpeg-turbo), JPEG lossless, JPEG-LS, JPEG 2000, HTJ2K and RLE. Not kept:
 * uncompressed frames (a lossless encoding of the gray is several times smaller) and 12-bit JPEG,
 * whose decoder here (jpeg-12bit.ts) corrects the library's level shift in server code the page
 * does not run; both are sent as JPEG-LS of the gray (codecs/jpeg-ls-encoder.ts).
 */
import type { PixelFormat } from '../../domain/pixels/pixel-format.ts';

export function pageDecodesAsStored(format: Pick<PixelFormat, 'encoding' | 'bitsStored'>): boolean {
  if (format.encoding === 'native') return false;
  if (format.encoding === 'jpeg' && format.bitsStored > 8) return false;
  return true;
}
