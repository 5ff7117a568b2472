import { grayFormat, type PixelFormat } from '../../../src/domain/pixels/pixel-format.ts';

/** Uncompressed 8-bit MONOCHROME2 frames of 6 x 4: a pack whose gray is its own bytes. */
export const GRAY_FORMAT: PixelFormat = grayFormat('native', 4, 6);
