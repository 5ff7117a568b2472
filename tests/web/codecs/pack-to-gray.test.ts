/**
 * Frame packs decode in the page to exactly the gray the server makes of the same frames, for
 * every encoding a pack may carry: real bitstreams written by dcmtk, GDCM and OpenJPH's encoder,
 * packed as the server packs them, decoded once through the page's codec registry (the code the
 * decode workers run) and once through the server's registry. A pack that is damaged, or that
 * does not match its chunk, fails instead of giving pixels.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeFrameWith } from '../../../src/domain/pixels/frame-decode.ts';
import { buildFramePack, FramePackError } from '../../../src/domain/pixels/frame-pack.ts';
import type { PixelFormat } from '../../../src/domain/pixels/pixel-format.ts';
import { codecFor, initCodecFor } from '../../../src/server/dicom/codecs/registry.ts';
import { readDicomUpload } from '../../../src/server/dicom/dicom-file.ts';
import { decodePackToGray, PackShapeError, PackToGray } from '../../../src/web/codecs/pack-to-gray.ts';
import type { CodecRegistry } from '../../../src/web/codecs/codec-registry.ts';
import { makeDicom, type FixtureOptions } from '../../support/dicom-fixtures.ts';
import { hasTool, htj2kEncoder, transcode } from '../../support/real-encoders.ts';
import { createNodeCodecs } from './node-codecs.ts';
import { decodeInParts } from './pack-parts.ts';

const hasTools = ['dcmcjpeg', 'dcmcjpls', 'dcmcrle', 'gdcmconv'].every(hasTool);
if (!hasTools) console.warn('dcmtk or GDCM is not installed: the frame pack codec cases are skipped.');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-packs-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FRAMES = 3;
const SOURCES = {
  gray: { frames: FRAMES, rows: 40, columns: 56 },
  odd: { frames: FRAMES, rows: 33, columns: 47 },
  rgb: { frames: FRAMES, rows: 40, columns: 56, color: 'rgb' },
  xa12: { kind: 'xa', frames: FRAMES, rows: 48, columns: 40, bits: 12, window: { center: 1900, width: 3000 } },
  xa16: { kind: 'xa', frames: FRAMES, rows: 32, columns: 64, bits: 16, window: { center: 30000, width: 50000 } },
} satisfies Record<string, FixtureOptions>;

let counter = 0;
function sourceFile(name: keyof typeof SOURCES): string {
  const file = path.join(dir, `${counter++}-${name}.dcm`);
  fs.writeFileSync(file, makeDicom(SOURCES[name]).bytes);
  return file;
}

/** A file's header and its frames' encoded bytes, as the server would pack them. */
async function encodedFrames(file: string): Promise<{ format: PixelFormat; frames: Uint8Array[] }> {
  const info = await readDicomUpload(file, path.basename(file));
  const bytes = fs.readFileSync(info.filePath);
  const frames = info.frames.map((ranges) => Buffer.concat(ranges.map(([offset, length]) => bytes.subarray(offset, offset + length))));
  return { format: info.format, frames: frames.map((frame) => new Uint8Array(frame)) };
}

/** The server's gray of the same frames: its registry, through the same pure decode. */
async function serverGray(format: PixelFormat, frames: Uint8Array[]): Promise<Uint8Array> {
  await initCodecFor(format);
  const size = format.rows * format.columns;
  const gray = new Uint8Array(frames.length * size);
  frames.forEach((frame, k) => decodeFrameWith(format, frame, gray.subarray(k * size, (k + 1) * size), codecFor));
  return gray;
}

const shapeOf = (format: PixelFormat, frames: number) => ({ width: format.columns, height: format.rows, frames });

const tool =
  (name: string, ...args: string[]) =>
  (input: string) =>
    transcode(name, args, input, `${input}.${name}.dcm`);

interface Case {
  readonly label: string;
  readonly source: keyof typeof SOURCES;
  readonly encoding: PixelFormat['encoding'];
  readonly make: (input: string) => string;
}

const CASES: Case[] = [
  { label: 'uncompressed', source: 'odd', encoding: 'native', make: (input) => input },
  { label: 'RLE, 8-bit', source: 'gray', encoding: 'rle', make: tool('dcmcrle') },
  { label: 'RLE, RGB', source: 'rgb', encoding: 'rle', make: tool('dcmcrle') },
  { label: 'JPEG baseline, 8-bit odd size', source: 'odd', encoding: 'jpeg', make: tool('dcmcjpeg', '+eb') },
  { label: 'JPEG baseline, YBR_FULL_422', source: 'rgb', encoding: 'jpeg', make: tool('dcmcjpeg', '+eb') },
  { label: 'JPEG extended, 8-bit', source: 'gray', encoding: 'jpeg', make: tool('dcmcjpeg', '+ee') },
  { label: 'JPEG extended, 12-bit window', source: 'xa12', encoding: 'jpeg', make: tool('dcmcjpeg', '+ee') },
  { label: 'JPEG lossless, 8-bit', source: 'gray', encoding: 'jpeg-lossless', make: tool('dcmcjpeg', '+el') },
  { label: 'JPEG lossless SV1, 16-bit window', source: 'xa16', encoding: 'jpeg-lossless', make: tool('dcmcjpeg', '+e1') },
  { label: 'JPEG-LS lossless, 8-bit', source: 'gray', encoding: 'jpeg-ls', make: tool('dcmcjpls') },
  { label: 'JPEG-LS lossless, 12-bit window', source: 'xa12', encoding: 'jpeg-ls', make: tool('dcmcjpls') },
  { label: 'JPEG-LS near-lossless, RGB', source: 'rgb', encoding: 'jpeg-ls', make: tool('dcmcjpls', '+en') },
  { label: 'JPEG 2000 lossless, 12-bit window', source: 'xa12', encoding: 'jpeg2000', make: tool('gdcmconv', '--j2k') },
  { label: 'JPEG 2000 lossy, RGB', source: 'rgb', encoding: 'jpeg2000', make: tool('gdcmconv', '--j2k', '--lossy', '-q', '45') },
];

describe.skipIf(!hasTools)('a frame pack decoded in the page', () => {
  const page = createNodeCodecs();

  it.each(CASES)('$label: the same gray as the server', async ({ source, encoding, make }) => {
    const { format, frames } = await encodedFrames(make(sourceFile(source)));
    expect(format.encoding).toBe(encoding);
    const pack = buildFramePack(format, frames);
    const gray = await decodePackToGray(pack, shapeOf(format, frames.length), page);
    const expected = await serverGray(format, frames);
    expect(gray.length).toBe(frames.length * format.rows * format.columns);
    expect(Buffer.from(gray).equals(Buffer.from(expected))).toBe(true);
    // The same gray when the pack's bytes come part by part, as they download.
    expect(Buffer.from(await decodeInParts(pack, shapeOf(format, frames.length), page)).equals(Buffer.from(expected))).toBe(true);
    // Not a blank frame compared with a blank frame.
    expect(new Set(gray).size).toBeGreaterThan(8);
  });

  it('HTJ2K (OpenJPH), lossless and lossy: the same gray as the server', async () => {
    const { format: native, frames: raw } = await encodedFrames(sourceFile('gray'));
    const encode = await htj2kEncoder();
    for (const lossless of [true, false]) {
      const format: PixelFormat = { ...native, encoding: 'htj2k' };
      const frames = raw.map((frame) => encode(frame, { width: format.columns, height: format.rows, bits: 8, components: 1, lossless }));
      const gray = await decodePackToGray(buildFramePack(format, frames), shapeOf(format, frames.length), page);
      expect(Buffer.from(gray).equals(Buffer.from(await serverGray(format, frames)))).toBe(true);
      if (lossless) expect(Buffer.from(gray).equals(Buffer.concat(raw))).toBe(true);
    }
  });


  it('decodes each frame as soon as its last byte is in, before the rest of the pack has arrived', async () => {
    const { format, frames } = await encodedFrames(tool('dcmcjpls')(sourceFile('gray')));
    const pack = buildFramePack(format, frames);
    const decoded: number[] = [];
    const counting: CodecRegistry = {
      init: (f) => page.init(f),
      codecFor: (f) => {
        const codec = page.codecFor(f);
        return codec && { ...codec, decode: (frame) => (decoded.push(frame.length), codec.decode(frame)) };
      },
    };
    const decoder = new PackToGray(shapeOf(format, frames.length), counting);
    const firstEnd = pack.length - frames.slice(1).reduce((sum, frame) => sum + frame.length, 0);
    await decoder.push(pack.slice(0, firstEnd - 1));
    expect(decoded).toEqual([]);
    await decoder.push(pack.slice(firstEnd - 1, firstEnd + 5));
    expect(decoded).toEqual([frames[0]!.length]);
    await decoder.push(pack.slice(firstEnd + 5));
    expect(decoded).toEqual(frames.map((frame) => frame.length));
    expect(Buffer.from(decoder.finish()).equals(Buffer.from(await serverGray(format, frames)))).toBe(true);
  });

  it('a damaged pack fails: truncated, a corrupt frame, or frames other than the chunk announced', async () => {
    const { format, frames } = await encodedFrames(tool('dcmcjpeg', '+eb')(sourceFile('gray')));
    const pack = buildFramePack(format, frames);
    const shape = shapeOf(format, frames.length);
    await expect(decodePackToGray(pack.subarray(0, pack.length - 10), shape, page)).rejects.toThrow(FramePackError);
    const garbage = frames.map((frame) => frame.map((byte, i) => (i < 2 ? byte : (byte * 31 + i) & 0xff)));
    await expect(decodePackToGray(buildFramePack(format, garbage), shape, page)).rejects.toThrow();
    await expect(decodePackToGray(pack, { ...shape, frames: frames.length + 1 }, page)).rejects.toThrow(PackShapeError);
    await expect(decodePackToGray(pack, { ...shape, width: shape.width + 1 }, page)).rejects.toThrow(PackShapeError);
    // In parts: a pack that stops early, one with bytes past its last frame, one that is no pack at all.
    const stopped = new PackToGray(shape, page);
    await stopped.push(pack.slice(0, pack.length - 1));
    expect(() => stopped.finish()).toThrow('ends inside a frame');
    const long = new PackToGray(shape, page);
    await long.push(pack.slice());
    await expect(long.push(new Uint8Array(1))).rejects.toThrow('bytes after its last frame');
    await expect(new PackToGray(shape, page).push(new Uint8Array([0x49, 0x56, 0x46, 0x51]))).rejects.toThrow('not a frame pack');
  });
});
