/**
 * Which imported frames go to the page as the file holds them (issue 27). The page decodes with
 * the same pure decode and the same WASM libraries as the server (domain/pixels/frame-decode.ts):
 * JPEG 8-bit (libjpeg-turbo), JPEG lossless, JPEG-LS, JPEG 2000, HTJ2K and RLE. Not kept:
 * uncompressed frames (a lossless encoding of the gray is several times smaller) and 12-bit JPEG,
 * whose decoder here (jpeg-12bit.ts) corrects the library's level shift in server code the page
 * does not run; both are sent as JPEG-LS of the gray (codecs/jpeg-ls-encoder.ts).
 */
import type { PackCodec } from '../../domain/images.ts';
import type { PixelFormat } from '../../domain/pixels/pixel-format.ts';
import { grayLosslessFormat } from './codecs/jpeg-ls-encoder.ts';

export function pageDecodesAsStored(format: Pick<PixelFormat, 'encoding' | 'bitsStored'>): boolean {
  if (format.encoding === 'native') return false;
  if (format.encoding === 'jpeg' && format.bitsStored > 8) return false;
  return true;
}

/** The codec of the packs made from a file of this format (what the image lists announce, so the page loads it early). */
export function packCodecOf(format: Pick<PixelFormat, 'encoding' | 'bitsStored' | 'rows' | 'columns'>): PackCodec {
  const packed = pageDecodesAsStored(format) ? format : grayLosslessFormat(format.rows, format.columns);
  return { encoding: packed.encoding, bitsStored: packed.bitsStored };
}

/** The codec of a demo record's packs: JPEG-LS of the generated gray (record-imaging.ts). */
export const DEMO_PACK_CODEC: PackCodec = packCodecOf({ encoding: 'native', bitsStored: 8, rows: 1, columns: 1 });
