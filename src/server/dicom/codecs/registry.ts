/**
 * Which library decodes the frames of each compressed encoding (ACCEPTED_TRANSFER_SYNTAXES maps
 * transfer syntaxes to encodings). Every adapter loads its library once per thread with init();
 * decoding is then synchronous.
 */
import type { PixelEncoding, PixelFormat } from '../../../domain/pixels/pixel-format.ts';
import { charls } from './charls.ts';
import { jpeg12Bit } from './jpeg-12bit.ts';
import { jpegLossless } from './jpeg-lossless.ts';
import { libjpegTurbo } from './libjpeg-turbo.ts';
import { openjpeg } from './openjpeg.ts';
import { openjph } from './openjph.ts';
import type { CodecAdapter } from '../../../domain/pixels/decoded-samples.ts';

type CodecEncoding = Exclude<PixelEncoding, 'native' | 'rle'>;

const CODECS: Record<CodecEncoding, { readonly eightBit: CodecAdapter; readonly wide?: CodecAdapter }> = {
  // JPEG extended (.51) holds 8 or 12-bit frames; libjpeg-turbo's build only takes the former.
  jpeg: { eightBit: libjpegTurbo, wide: jpeg12Bit },
  'jpeg-lossless': { eightBit: jpegLossless },
  'jpeg-ls': { eightBit: charls },
  jpeg2000: { eightBit: openjpeg },
  htj2k: { eightBit: openjph },
};

function isCodecEncoding(encoding: PixelEncoding): encoding is CodecEncoding {
  return encoding in CODECS;
}

/** The adapter for a file's frames, null for native and RLE frames (decoded in frame-decode.ts). */
export function codecFor(format: Pick<PixelFormat, 'encoding' | 'bitsStored'>): CodecAdapter | null {
  if (!isCodecEncoding(format.encoding)) return null;
  const entry = CODECS[format.encoding];
  return format.bitsStored > 8 && entry.wide ? entry.wide : entry.eightBit;
}

/** Loads the library a file's frames need (a no-op once loaded, and for native and RLE). */
export async function initCodecFor(format: Pick<PixelFormat, 'encoding' | 'bitsStored'>): Promise<void> {
  await codecFor(format)?.init();
}
