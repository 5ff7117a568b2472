/**
 * One frame pack (a chunk's frames as encoded bitstreams) to the chunk's 8-bit gray bytes, the
 * body a gray8 chunk has: frames one after another, each width x height, row-major. Run in the
 * decode workers; pure apart from the codecs it loads.
 *
 * The pack may come in parts, as its bytes arrive from the network (PackToGray): each frame is
 * decoded as soon as its last byte is in, so a chunk's decode runs while the rest of it, and the
 * other chunks, still download, and the last chunk in is gray one frame's decode later instead of
 * a whole chunk's (or, with chunks that finish together, several chunks') later. A frame the pack
 * predicts from the one before is made whole as it is decoded, before anyone (the first frame's
 * taker, the chunk's gray) sees it.
 */
import { decodeFrameWith } from '../../domain/pixels/frame-decode.ts';
import { FramePackError, readFramePackHeader, type FramePackHeader } from '../../domain/pixels/frame-pack.ts';
import { addPreviousFrame } from '../../domain/pixels/frame-prediction.ts';
import type { CodecRegistry } from './codec-registry.ts';

/** What the page expects of a chunk, from the record's image lists. */
export interface ChunkShape {
  readonly width: number;
  readonly height: number;
  readonly frames: number;
}

/** A pack whose frames are not the chunk the image lists announced. */
export class PackShapeError extends Error {}

/** The frame of a pack wanted before the others (the one the review shows now), and who takes it once decoded. */
export interface FirstFrame {
  readonly index: number;
  /** The frame's bytes in a buffer of their own (the caller may transfer it). */
  take(frame: Uint8Array<ArrayBuffer>): void;
}

/** Bytes kept for a pack's beginning until its header says how long it is. */
const FIRST_BUFFER_BYTES = 64 * 1024;

/** A pack's bytes, given part by part, to its chunk's gray; frames are decoded as they complete. */
export class PackToGray {
  private buffer: Uint8Array<ArrayBuffer> = new Uint8Array(FIRST_BUFFER_BYTES);
  private received = 0;
  private header: FramePackHeader | null = null;
  /** Where each frame starts in the pack, and where the last ends. */
  private frameEnds: number[] = [];
  private decodedFrames = 0;
  private gray: Uint8Array | null = null;
  private readonly shape: ChunkShape;
  private readonly codecs: CodecRegistry;
  /** Taken once: a retried request decodes the frame again, but it was delivered already. */
  private first: FirstFrame | null;

  constructor(shape: ChunkShape, codecs: CodecRegistry, first?: FirstFrame) {
    this.shape = shape;
    this.codecs = codecs;
    this.first = first ?? null;
  }

  /** The next bytes of the pack; resolves once every frame they complete is decoded. */
  async push(part: Uint8Array): Promise<void> {
    this.append(part);
    if (!this.header) {
      const read = readFramePackHeader(this.buffer.subarray(0, this.received));
      if (!read) return;
      await this.start(read.header, read.dataOffset);
    }
    this.decodeCompleteFrames();
  }

  /** The body is sent again from its start (a retried request): what came before is dropped. */
  restart(): void {
    this.buffer = new Uint8Array(FIRST_BUFFER_BYTES);
    this.received = 0;
    this.header = null;
    this.frameEnds = [];
    this.decodedFrames = 0;
    this.gray = null;
  }

  /** The whole pack as it arrived, once finished (kept for the next visit, pack-cache.ts). */
  packBytes(): Uint8Array<ArrayBuffer> {
    return this.buffer.subarray(0, this.received);
  }

  /** The chunk's gray, once the whole pack is in; throws if it ended early. */
  finish(): Uint8Array {
    if (!this.header || !this.gray) throw new FramePackError(this.received < 8 ? 'not a frame pack' : 'a frame pack header runs past its end');
    if (this.decodedFrames < this.header.frameLengths.length) throw new FramePackError('a frame pack ends inside a frame');
    return this.gray;
  }

  private append(part: Uint8Array): void {
    const needed = this.received + part.length;
    if (this.header && needed > this.buffer.length) throw new FramePackError('a frame pack has bytes after its last frame');
    if (needed > this.buffer.length) {
      const grown = new Uint8Array(Math.max(needed, 2 * this.buffer.length));
      grown.set(this.buffer.subarray(0, this.received));
      this.buffer = grown;
    }
    this.buffer.set(part, this.received);
    this.received = needed;
  }

  /** The header is in: checked against the chunk, the codec loaded, the buffer sized to the whole pack. */
  private async start(header: FramePackHeader, dataOffset: number): Promise<void> {
    const { format, frameLengths } = header;
    const { width, height, frames } = this.shape;
    if (format.columns !== width || format.rows !== height) {
      throw new PackShapeError(`the pack's frames are ${format.columns}x${format.rows} where the series is ${width}x${height}`);
    }
    if (frameLengths.length !== frames) throw new PackShapeError(`the pack holds ${frameLengths.length} frames where the chunk has ${frames}`);
    await this.codecs.init(format);
    const ends = [dataOffset];
    for (const length of frameLengths) ends.push(ends.at(-1)! + length);
    const total = ends.at(-1)!;
    if (this.received > total) throw new FramePackError('a frame pack has bytes after its last frame');
    const whole = new Uint8Array(total);
    whole.set(this.buffer.subarray(0, this.received));
    this.buffer = whole;
    this.frameEnds = ends;
    this.gray = new Uint8Array(frames * width * height);
    this.header = header;
  }

  private decodeCompleteFrames(): void {
    const { header, gray, frameEnds } = this;
    if (!header || !gray) return;
    const frameBytes = this.shape.width * this.shape.height;
    for (let k = this.decodedFrames; k < header.frameLengths.length && frameEnds[k + 1]! <= this.received; k++) {
      const frame = this.buffer.subarray(frameEnds[k]!, frameEnds[k + 1]!);
      const into = gray.subarray(k * frameBytes, (k + 1) * frameBytes);
      decodeFrameWith(header.format, frame, into, this.codecs.codecFor);
      // A predicted frame decodes to its residual; the frame before is whole already (frames complete in order).
      if (header.predict?.[k]) addPreviousFrame(into, gray.subarray((k - 1) * frameBytes, k * frameBytes));
      this.decodedFrames = k + 1;
      if (this.first?.index === k) {
        // One frame copied here (tens of microseconds) keeps the chunk whole in one buffer for the store.
        const { take } = this.first;
        this.first = null;
        take(into.slice());
      }
    }
  }
}

/** A whole pack to its chunk's gray. */
export async function decodePackToGray(bytes: Uint8Array, shape: ChunkShape, codecs: CodecRegistry): Promise<Uint8Array> {
  const pack = new PackToGray(shape, codecs);
  await pack.push(bytes);
  return pack.finish();
}
