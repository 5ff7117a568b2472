/**
 * The transfer syntaxes an import accepts (with the pixel encoding its frames are decoded by) and
 * the names of the others, so a refusal can say what the file is.
 */
import type { PixelEncoding } from '../../domain/pixels/pixel-format.ts';

export const EXPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';
export const EXPLICIT_BIG_ENDIAN = '1.2.840.10008.1.2.2';
export const DEFLATED_EXPLICIT_LITTLE_ENDIAN = '1.2.840.10008.1.2.1.99';

export const ACCEPTED_TRANSFER_SYNTAXES: Record<string, { name: string; encoding: PixelEncoding }> = {
  '1.2.840.10008.1.2': { name: 'implicit VR little endian', encoding: 'native' },
  [EXPLICIT_LITTLE_ENDIAN]: { name: 'explicit VR little endian', encoding: 'native' },
  [EXPLICIT_BIG_ENDIAN]: { name: 'explicit VR big endian', encoding: 'native' },
  // Inflated into an explicit VR little endian file before its header is read (deflated.ts).
  [DEFLATED_EXPLICIT_LITTLE_ENDIAN]: { name: 'deflated explicit VR little endian', encoding: 'native' },
  '1.2.840.10008.1.2.5': { name: 'RLE lossless', encoding: 'rle' },
  '1.2.840.10008.1.2.4.50': { name: 'JPEG baseline', encoding: 'jpeg' },
  '1.2.840.10008.1.2.4.51': { name: 'JPEG extended (12-bit)', encoding: 'jpeg' },
  '1.2.840.10008.1.2.4.57': { name: 'JPEG lossless', encoding: 'jpeg-lossless' },
  '1.2.840.10008.1.2.4.70': { name: 'JPEG lossless, first-order prediction', encoding: 'jpeg-lossless' },
  '1.2.840.10008.1.2.4.80': { name: 'JPEG-LS lossless', encoding: 'jpeg-ls' },
  '1.2.840.10008.1.2.4.81': { name: 'JPEG-LS near-lossless', encoding: 'jpeg-ls' },
  '1.2.840.10008.1.2.4.90': { name: 'JPEG 2000 lossless', encoding: 'jpeg2000' },
  '1.2.840.10008.1.2.4.91': { name: 'JPEG 2000', encoding: 'jpeg2000' },
  '1.2.840.10008.1.2.4.201': { name: 'HTJ2K lossless', encoding: 'htj2k' },
  '1.2.840.10008.1.2.4.202': { name: 'HTJ2K lossless RPCL', encoding: 'htj2k' },
  '1.2.840.10008.1.2.4.203': { name: 'HTJ2K', encoding: 'htj2k' },
};

/** How a refusal names what is accepted. */
export const ACCEPTED_SYNTAXES_TEXT =
  'implicit, explicit (little or big endian) or deflated VR, RLE lossless, JPEG baseline, extended, lossless, JPEG-LS, JPEG 2000 or HTJ2K';

export const OTHER_TRANSFER_SYNTAXES: Record<string, string> = {
  '1.2.840.10008.1.2.4.100': 'MPEG-2',
  '1.2.840.10008.1.2.4.101': 'MPEG-2 high level',
  '1.2.840.10008.1.2.4.102': 'MPEG-4 AVC/H.264',
  '1.2.840.10008.1.2.4.103': 'MPEG-4 AVC/H.264 BD',
  '1.2.840.10008.1.2.4.104': 'MPEG-4 AVC/H.264 2D',
  '1.2.840.10008.1.2.4.105': 'MPEG-4 AVC/H.264 3D',
  '1.2.840.10008.1.2.4.106': 'MPEG-4 AVC/H.264 stereo',
  '1.2.840.10008.1.2.4.107': 'HEVC/H.265',
  '1.2.840.10008.1.2.4.108': 'HEVC/H.265 main 10',
  '1.2.840.10008.1.2.4.110': 'JPEG XL lossless',
  '1.2.840.10008.1.2.4.112': 'JPEG XL',
};
