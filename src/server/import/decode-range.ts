/**
 * Decodes a run of consecutive frames straight from the uploaded file, reading only their bytes
 * (by offset), never the whole file. Synchronous: it runs in a decode worker, or on the main
 * thread between awaits when no worker is configured; the file's codec must be loaded first
 * (initCodecFor in dicom/codecs/registry.ts).
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { decodeFrame, FrameDecodeError } from '../dicom/frame-decode.ts';
import { encodeGrayFrames, grayLosslessFormat } from '../dicom/codecs/jpeg-ls-encoder.ts';
import { pageDecodesAsStored } from '../dicom/page-decodable.ts';
import { buildFramePack } from '../../domain/pixels/frame-pack.ts';
import type { FrameLocation, PixelFormat } from '../../domain/pixels/pixel-format.ts';

export interface DecodeJob {
  readonly filePath: string;
  readonly format: PixelFormat;
  /** Index (in the file) of the first frame of `frames`, for messages. */
  readonly firstFrame: number;
  readonly frames: readonly FrameLocation[];
  /** Also gzip the frames (level 1), as they are stored. */
  readonly gzip: boolean;
  /**
   * Also make the chunk's frame pack: the file's own frame bytes when the page decodes them
   * (pageDecodesAsStored), else JPEG-LS of the gray (initGrayEncoder first).
   */
  readonly pack?: boolean;
}

export interface DecodedFrames {
  /** frames.length x rows x columns gray bytes. */
  readonly pixels: Uint8Array;
  readonly gzipped: Uint8Array | null;
  readonly pack: Uint8Array | null;
}

function readLocation(fd: number, location: FrameLocation, scratch: { buffer: Buffer }): Uint8Array {
  let total = 0;
  for (const [, length] of location) total += length;
  if (scratch.buffer.length < total) scratch.buffer = Buffer.allocUnsafe(Math.max(total, scratch.buffer.length * 2));
  let at = 0;
  for (const [offset, length] of location) {
    let done = 0;
    while (done < length) {
      const read = fs.readSync(fd, scratch.buffer, at + done, length - done, offset + done);
      if (read === 0) throw new FrameDecodeError('decode_failed', 'the file ends inside the frame');
      done += read;
    }
    at += length;
  }
  return scratch.buffer.subarray(0, total);
}

/**
 * An uncompressed frame of 8-bit samples in a big endian OW element: every word of the element is
 * byte-swapped, and a frame of odd length starts or ends inside a word, so whole words are read
 * (pixel data starts at an even offset) and put back in order.
 */
function readWordSwapped(fd: number, [offset, length]: readonly [number, number], scratch: { buffer: Buffer }): Uint8Array {
  const start = offset - (offset % 2);
  const end = offset + length + ((offset + length) % 2);
  const words = readLocation(fd, [[start, end - start]], scratch);
  for (let k = 0; k + 1 < words.length; k += 2) [words[k], words[k + 1]] = [words[k + 1]!, words[k]!];
  return words.subarray(offset - start, offset - start + length);
}

export function decodeRange(job: DecodeJob): DecodedFrames {
  const frameBytes = job.format.rows * job.format.columns;
  const pixels = new Uint8Array(job.frames.length * frameBytes);
  // The file's frames, copied out of the scratch buffer, when they go to the page as they are.
  const asStored: Uint8Array[] | null = job.pack && pageDecodesAsStored(job.format) ? [] : null;
  const fd = fs.openSync(job.filePath, 'r');
  try {
    const scratch = { buffer: Buffer.allocUnsafe(64 * 1024) };
    const swapped = job.format.encoding === 'native' && job.format.bigEndianWords && job.format.bitsAllocated === 8;
    job.frames.forEach((location, k) => {
      try {
        const bytes = swapped ? readWordSwapped(fd, location[0]!, scratch) : readLocation(fd, location, scratch);
        decodeFrame(job.format, bytes, pixels.subarray(k * frameBytes, (k + 1) * frameBytes));
        // A copy: the bytes are a view into the scratch buffer the next frame is read into.
        asStored?.push(new Uint8Array(bytes));
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new FrameDecodeError(error instanceof FrameDecodeError ? error.code : 'decode_failed', `frame ${job.firstFrame + k + 1}: ${message}`);
      }
    });
  } finally {
    fs.closeSync(fd);
  }
  const gzipped = job.gzip ? new Uint8Array(zlib.gzipSync(pixels, { level: 1 })) : null;
  return { pixels, gzipped, pack: job.pack ? packOf(job.format, pixels, asStored) : null };
}

function packOf(format: PixelFormat, pixels: Uint8Array, asStored: Uint8Array[] | null): Uint8Array {
  if (asStored) return buildFramePack(format, asStored);
  const encoded = encodeGrayFrames(pixels, format.rows, format.columns);
  return buildFramePack(grayLosslessFormat(format.rows, format.columns), encoded.frames, encoded.predict);
}
