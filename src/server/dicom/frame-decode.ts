/**
 * The server's frame decode: the pure decode of domain/pixels with the codecs this thread loaded
 * (initCodecFor in codecs/registry.ts first).
 */
import { decodeFrameWith, FrameDecodeError, rleSegmentCount } from '../../domain/pixels/frame-decode.ts';
import type { PixelFormat } from '../../domain/pixels/pixel-format.ts';
import { codecFor } from './codecs/registry.ts';

export { FrameDecodeError, rleSegmentCount };

/** Any accepted frame to gray, into `out` (rows x columns bytes). */
export function decodeFrame(format: PixelFormat, data: Uint8Array, out: Uint8Array): void {
  decodeFrameWith(format, data, out, codecFor);
}
