/**
 * Where each frame's bytes are in an uploaded DICOM file, found with small reads: native pixel data
 * by arithmetic, encapsulated pixel data by walking its fragment items and checking the start of
 * every frame (RLE segment count; JPEG, JPEG-LS and JPEG 2000 process, precision, frame size and
 * components from the frame or image header).
 */
import fs from 'node:fs';
import type { Element } from 'dicom-parser';
import { rejectFile } from '../../domain/import-rejection.ts';
import { rleSegmentCount } from './frame-decode.ts';
import { nativeFrameBytes, type FrameLocation, type PixelEncoding, type PixelFormat } from '../../domain/pixels/pixel-format.ts';

/** Bytes read at the start of each JPEG frame to find its frame header. */
const JPEG_PROBE = 4096;
/** Bytes kept from the start of every fragment: an RLE header, a JPEG start-of-image marker. */
const FRAGMENT_PROBE = 64;

/** Exactly `length` bytes at `position`; a short read means the file ended there. */
export function readExactly(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const read = fs.readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}

/** The frame header (SOFn, or SOF55 of JPEG-LS) at the start of a JPEG frame, when it lies within `probe`. */
export function jpegFrameHeader(probe: Uint8Array): { marker: number; precision: number; height: number; width: number; components: number } | 'not-jpeg' | null {
  if (probe[0] !== 0xff || probe[1] !== 0xd8) return 'not-jpeg';
  let p = 2;
  while (p + 4 <= probe.length) {
    if (probe[p] !== 0xff) return null;
    const marker = probe[p + 1]!;
    if (marker === 0xff) {
      p += 1;
      continue;
    }
    if ((marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xf7) {
      if (p + 10 > probe.length) return null;
      return {
        marker,
        precision: probe[p + 4]!,
        height: (probe[p + 5]! << 8) | probe[p + 6]!,
        width: (probe[p + 7]! << 8) | probe[p + 8]!,
        components: probe[p + 9]!,
      };
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null;
    p += 2 + ((probe[p + 2]! << 8) | probe[p + 3]!);
  }
  return null;
}

/** Image size and components from the SIZ segment that follows SOC at the start of a JPEG 2000 codestream. */
export function j2kImageHeader(probe: Uint8Array): { width: number; height: number; components: number } | 'not-j2k' | null {
  if (probe[0] !== 0xff || probe[1] !== 0x4f) return 'not-j2k';
  if (probe.length < 42 || probe[2] !== 0xff || probe[3] !== 0x51) return null;
  const view = new DataView(probe.buffer, probe.byteOffset, probe.byteLength);
  return {
    width: view.getUint32(8) - view.getUint32(16),
    height: view.getUint32(12) - view.getUint32(20),
    components: view.getUint16(40),
  };
}

type Fragment = { offset: number; length: number; relative: number; probe: Buffer };

/** Walks the items of encapsulated pixel data: the basic offset table, then each fragment. */
function walkFragments(
  fd: number,
  fileSize: number,
  start: number,
  probeBytes: number,
  maxFragments: number,
  fileName: string,
): { offsetTable: number[]; fragments: Fragment[] } {
  const truncated = () => rejectFile('truncated', fileName, 'the file ends inside its pixel data.');
  const itemAt = (position: number, extra: number) => {
    if (position + 8 > fileSize) throw truncated();
    const bytes = readExactly(fd, position, Math.min(8 + extra, fileSize - position));
    return { group: bytes.readUInt16LE(0), element: bytes.readUInt16LE(2), length: bytes.readUInt32LE(4), bytes };
  };
  const table = itemAt(start, 0);
  if (table.group !== 0xfffe || table.element !== 0xe000) {
    throw rejectFile('decode_failed', fileName, 'its encapsulated pixel data does not start with an offset table item.');
  }
  if (start + 8 + table.length > fileSize) throw truncated();
  const tableBytes = table.length > 0 ? readExactly(fd, start + 8, table.length) : Buffer.alloc(0);
  const offsetTable: number[] = [];
  for (let k = 0; k + 4 <= tableBytes.length; k += 4) offsetTable.push(tableBytes.readUInt32LE(k));
  const first = start + 8 + table.length;
  const fragments: Fragment[] = [];
  for (let position = first; ; ) {
    const item = itemAt(position, probeBytes);
    if (item.group === 0xfffe && item.element === 0xe0dd) break;
    if (item.group !== 0xfffe || item.element !== 0xe000 || item.length === 0xffffffff) {
      throw rejectFile('decode_failed', fileName, `its encapsulated pixel data is damaged at byte ${position}.`);
    }
    if (position + 8 + item.length > fileSize) throw truncated();
    // Every fragment costs a read: a file of millions of tiny ones is refused, not walked.
    if (fragments.length === maxFragments) {
      throw rejectFile('over_budget', fileName, `its pixel data holds more than ${maxFragments.toLocaleString('en-US')} fragments.`);
    }
    fragments.push({ offset: position + 8, length: item.length, relative: position - first, probe: Buffer.from(item.bytes.subarray(8, 8 + Math.min(item.length, probeBytes))) });
    position += 8 + item.length;
  }
  return { offsetTable, fragments };
}

/** Groups fragments into frames: by the offset table, one per frame, all in one, or (JPEG) by start-of-image markers. */
function framesFromFragments(offsetTable: number[], fragments: Fragment[], frameCount: number, encoding: PixelEncoding, fileName: string): Fragment[][] {
  if (offsetTable.length === frameCount && offsetTable[0] === 0) {
    const starts = new Map(fragments.map((f, index) => [f.relative, index]));
    const indices = offsetTable.map((offset) => starts.get(offset));
    if (indices.every((index, k) => index !== undefined && (k === 0 || index > indices[k - 1]!))) {
      return indices.map((index, k) => fragments.slice(index!, k + 1 < indices.length ? indices[k + 1]! : fragments.length));
    }
  }
  if (fragments.length === frameCount) return fragments.map((f) => [f]);
  if (frameCount === 1) return [fragments];
  if (encoding in JPEG_PROCESSES) {
    const frames: Fragment[][] = [];
    for (const fragment of fragments) {
      if (fragment.probe[0] === 0xff && fragment.probe[1] === 0xd8) frames.push([fragment]);
      else frames[frames.length - 1]?.push(fragment);
    }
    if (frames.length === frameCount) return frames;
  }
  throw rejectFile('inconsistent_frames', fileName, `the header announces ${frameCount} frames but the pixel data holds ${fragments.length} fragments that do not make ${frameCount} frames.`);
}

function checkEncapsulatedFrame(fd: number, format: PixelFormat, frame: Fragment[], index: number, fileName: string): void {
  const start = frame[0];
  if (!start || start.length === 0) throw rejectFile('zero_frames', fileName, `frame ${index + 1} is empty.`);
  const probe = format.encoding in JPEG_PROCESSES && start.length > start.probe.length ? readExactly(fd, start.offset, Math.min(start.length, JPEG_PROBE)) : start.probe;
  if (format.encoding === 'rle') {
    if (probe.length < 64) throw rejectFile('decode_failed', fileName, `frame ${index + 1} is shorter than an RLE header.`);
    const segments = probe.readUInt32LE(0);
    if (segments !== rleSegmentCount(format)) {
      throw rejectFile('inconsistent_frames', fileName, `frame ${index + 1} has ${segments} RLE segments where the header implies ${rleSegmentCount(format)}.`);
    }
    return;
  }
  if (format.encoding === 'jpeg2000' || format.encoding === 'htj2k') {
    const image = j2kImageHeader(probe);
    // A JP2 file wrapper (not allowed in DICOM, but written) is left to the decoder.
    if (image === 'not-j2k' || image === null) return;
    checkFrameSize(format, image, index, fileName);
    return;
  }
  const header = jpegFrameHeader(probe);
  if (header === 'not-jpeg') throw rejectFile('decode_failed', fileName, `frame ${index + 1} is not a JPEG image.`);
  if (header === null) return; // its frame header lies further in: the decoder checks it
  const process = JPEG_PROCESSES[format.encoding]!;
  if (!process.markers.includes(header.marker) || header.precision < process.minPrecision || header.precision > Math.min(process.maxPrecision, format.bitsAllocated)) {
    throw rejectFile('unsupported_transfer_syntax', fileName, `frame ${index + 1} is not ${process.name} image of at most ${format.bitsAllocated} bits.`);
  }
  checkFrameSize(format, header, index, fileName);
}

/** The JPEG processes (SOF markers) and precisions each JPEG family of transfer syntaxes allows. */
const JPEG_PROCESSES: Partial<Record<PixelEncoding, { name: string; markers: number[]; minPrecision: number; maxPrecision: number }>> = {
  // Baseline (SOF0), extended 8 or 12-bit (SOF1); progressive (SOF2) as written by some consoles.
  jpeg: { name: 'a JPEG baseline or extended', markers: [0xc0, 0xc1, 0xc2], minPrecision: 8, maxPrecision: 12 },
  'jpeg-lossless': { name: 'a JPEG lossless', markers: [0xc3], minPrecision: 2, maxPrecision: 16 },
  'jpeg-ls': { name: 'a JPEG-LS', markers: [0xf7], minPrecision: 2, maxPrecision: 16 },
};

function checkFrameSize(format: PixelFormat, header: { width: number; height: number; components: number }, index: number, fileName: string): void {
  if (header.height !== 0 && (header.width !== format.columns || header.height !== format.rows)) {
    throw rejectFile(
      'inconsistent_frames',
      fileName,
      `frame ${index + 1} is ${header.width}x${header.height} where the header says ${format.columns}x${format.rows}.`,
    );
  }
  // A grayscale file whose frames carry YCbCr keeps their luma; the other way round cannot work.
  if (header.components !== format.samplesPerPixel && !(format.samplesPerPixel === 1 && header.components === 3)) {
    throw rejectFile('inconsistent_frames', fileName, `frame ${index + 1} has ${header.components} colour components where the header says ${format.samplesPerPixel}.`);
  }
}

export function locateFrames(
  fd: number,
  fileSize: number,
  pixelData: Element,
  format: PixelFormat,
  frameCount: number,
  maxFragments: number,
  fileName: string,
): FrameLocation[] {
  if (format.encoding === 'native') {
    if (pixelData.hadUndefinedLength || pixelData.length === 0xffffffff) {
      throw rejectFile('decode_failed', fileName, 'its pixel data is encapsulated although its transfer syntax is uncompressed.');
    }
    const frameBytes = nativeFrameBytes(format);
    const expected = frameBytes * frameCount;
    if (pixelData.length === 0) throw rejectFile('zero_frames', fileName, 'its pixel data is empty.');
    if (pixelData.dataOffset + Math.min(pixelData.length, expected) > fileSize) {
      const present = Math.max(0, fileSize - pixelData.dataOffset);
      throw rejectFile('truncated', fileName, `the file ends inside its pixel data (${present} of ${pixelData.length} bytes present).`);
    }
    // One padding byte keeps an odd length even.
    if (pixelData.length !== expected && pixelData.length !== expected + 1) {
      throw rejectFile(
        'inconsistent_frames',
        fileName,
        `its pixel data holds ${pixelData.length} bytes where ${frameCount} frames of ${format.columns}x${format.rows}` +
          ` (${frameBytes} bytes each) need ${expected}.`,
      );
    }
    return Array.from({ length: frameCount }, (_, k) => [[pixelData.dataOffset + k * frameBytes, frameBytes]] as const);
  }
  if (!pixelData.hadUndefinedLength && pixelData.length !== 0xffffffff) {
    throw rejectFile('decode_failed', fileName, 'its pixel data is not encapsulated although its transfer syntax is compressed.');
  }
  const { offsetTable, fragments } = walkFragments(fd, fileSize, pixelData.dataOffset, FRAGMENT_PROBE, maxFragments, fileName);
  if (fragments.length === 0) throw rejectFile('zero_frames', fileName, 'its pixel data holds no frames.');
  const frames = framesFromFragments(offsetTable, fragments, frameCount, format.encoding, fileName);
  frames.forEach((frame, index) => checkEncapsulatedFrame(fd, format, frame, index, fileName));
  return frames.map((frame) => frame.map((f) => [f.offset, f.length] as const));
}
