import type { PixelFormat } from '../../../src/domain/pixels/pixel-format.ts';

/** Uncompressed 8-bit MONOCHROME2 frames of 6 x 4: a pack whose gray is its own bytes. */
export const GRAY_FORMAT: PixelFormat = {
  encoding: 'native',
  rows: 4,
  columns: 6,
  samplesPerPixel: 1,
  bitsAllocated: 8,
  bitsStored: 8,
  pixelRepresentation: 0,
  photometric: 'MONOCHROME2',
  planarConfiguration: 0,
  bigEndianWords: false,
  rescaleSlope: 1,
  rescaleIntercept: 0,
  window: null,
  voiLut: null,
  palette: null,
};
