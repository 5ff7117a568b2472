/**
 * One frame pack (a chunk's frames as encoded bitstreams) to the chunk's 8-bit gray bytes, the
 * body a gray8 chunk has: frames one after another, each width x height, row-major. Run in the
 * decode workers; pure apart from the codecs it loads.
 */
import { decodeFrameWith } from '../../domain/pixels/frame-decode.ts';
import { readFramePack } from '../../domain/pixels/frame-pack.ts';
import type { CodecRegistry } from './codec-registry.ts';

/** What the page expects of a chunk, from the record's image lists. */
export interface ChunkShape {
  readonly width: number;
  readonly height: number;
  readonly frames: number;
}

/** A pack whose frames are not the chunk the image lists announced. */
export class PackShapeError extends Error {}

export async function decodePackToGray(bytes: Uint8Array, shape: ChunkShape, codecs: CodecRegistry): Promise<Uint8Array> {
  const { format, frames } = readFramePack(bytes);
  if (format.columns !== shape.width || format.rows !== shape.height) {
    throw new PackShapeError(`the pack's frames are ${format.columns}x${format.rows} where the series is ${shape.width}x${shape.height}`);
  }
  if (frames.length !== shape.frames) throw new PackShapeError(`the pack holds ${frames.length} frames where the chunk has ${shape.frames}`);
  await codecs.init(format);
  const frameBytes = shape.width * shape.height;
  const gray = new Uint8Array(frames.length * frameBytes);
  frames.forEach((frame, k) => decodeFrameWith(format, frame, gray.subarray(k * frameBytes, (k + 1) * frameBytes), codecs.codecFor));
  return gray;
}
