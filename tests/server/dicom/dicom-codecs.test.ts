/**
 * Every accepted transfer syntax and photometric interpretation, encoded by real encoders (dcmtk,
 * GDCM, OpenJPH) from files makeDicom writes, then read and decoded as an import does
 * (readDicomFile, then decodeRange) and compared with the source: exactly for lossless syntaxes,
 * within a stated bound for lossy ones. Multi-frame, non-square and odd frame sizes; 8, 12 and
 * 16-bit data through window, VOI LUT and stored range; MONOCHROME1; palette colour against dcmtk's
 * own rendering. Cases whose tool is missing are skipped with a notice.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initCodecFor } from '../../../src/server/dicom/codecs/registry.ts';
import { ImportRejection } from '../../../src/domain/import-rejection.ts';
import { createDecodePool } from '../../../src/server/import/decode-pool.ts';
import { decodeRange } from '../../../src/server/import/decode-range.ts';
import { readDicomFile, readDicomUpload, type DicomFile } from '../../../src/server/dicom/dicom-file.ts';
import { expectedLuma, makeDicom, type Fixture, type FixtureOptions } from '../../support/dicom-fixtures.ts';
import { dcm2pnmRgbFrames, hasTool, htj2kEncoder, modified, transcode } from '../../support/real-encoders.ts';

const hasDcmtk = ['dcmconv', 'dcmcrle', 'dcmcjpeg', 'dcmdjpeg', 'dcmcjpls', 'dcmquant', 'dcmodify', 'dcm2pnm'].every(hasTool);
const hasGdcm = hasTool('gdcmconv');
if (!hasDcmtk) console.warn('dcmtk is not installed: its codec cases are skipped (apt-get install dcmtk).');
if (!hasGdcm) console.warn('GDCM (gdcmconv) is not installed: its codec cases are skipped (apt-get install libgdcm-tools).');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-codecs-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const FRAMES = 3;
const XA_WINDOW = { center: 1900, width: 3000 };
/** A gamma-like VOI LUT over the 12-bit range with 8-bit entries, from 100 on. */
const VOI_LUT_12 = { first: 100, bits: 8, data: Array.from({ length: 3900 }, (_, k) => Math.round(255 * Math.sqrt(k / 3899))) };
/** A 16-bit VOI LUT (entries of 16 bits) over the whole 16-bit range, in 4096 steps. */
const VOI_LUT_16 = { first: 0, bits: 16, data: Array.from({ length: 4096 }, (_, k) => Math.round(65535 * (k / 4095) ** 0.7)) };

const SOURCES = {
  gray: { frames: FRAMES, rows: 40, columns: 56 },
  odd: { frames: FRAMES, rows: 33, columns: 47 },
  rgb: { frames: FRAMES, rows: 40, columns: 56, color: 'rgb' },
  rgbPlanar: { frames: FRAMES, rows: 40, columns: 56, color: 'rgb', planar: 1 },
  ybr: { frames: FRAMES, rows: 40, columns: 56, color: 'ybr' },
  mono1: { frames: FRAMES, rows: 40, columns: 56, monochrome1: true },
  xa12: { kind: 'xa', frames: FRAMES, rows: 48, columns: 40, bits: 12, window: XA_WINDOW, rescale: { slope: 1, intercept: -100 } },
  xa12Voi: { kind: 'xa', frames: FRAMES, rows: 48, columns: 40, bits: 12, voiLut: VOI_LUT_12 },
  xa12Mono1: { kind: 'xa', frames: FRAMES, rows: 48, columns: 40, bits: 12, window: XA_WINDOW, monochrome1: true },
  xa16: { kind: 'xa', frames: FRAMES, rows: 32, columns: 64, bits: 16, window: { center: 30000, width: 50000 } },
  xa16Voi: { kind: 'xa', frames: FRAMES, rows: 32, columns: 64, bits: 16, voiLut: VOI_LUT_16 },
  xa16Range: { kind: 'xa', frames: FRAMES, rows: 32, columns: 64, bits: 16 },
} satisfies Record<string, FixtureOptions>;
type SourceName = keyof typeof SOURCES;

const written = new Map<SourceName, { file: string; fixture: Fixture }>();
function source(name: SourceName): { file: string; fixture: Fixture } {
  let entry = written.get(name);
  if (!entry) {
    const fixture = makeDicom(SOURCES[name]);
    const file = path.join(dir, `${name}.dcm`);
    fs.writeFileSync(file, fixture.bytes);
    entry = { file, fixture };
    written.set(name, entry);
  }
  return entry;
}

let counter = 0;
const out = (label: string) => path.join(dir, `${counter++}-${label.replace(/[^a-z0-9]+/gi, '-')}.dcm`);

/** What an import does with a file: the header, then every frame decoded to gray. */
async function importFrames(file: string): Promise<{ info: DicomFile; frames: Uint8Array[] }> {
  const info = await readDicomUpload(file, path.basename(file));
  await initCodecFor(info.format);
  const { pixels } = decodeRange({ filePath: info.filePath, format: info.format, firstFrame: 0, frames: info.frames, gzip: false });
  const size = info.format.rows * info.format.columns;
  return { info, frames: Array.from({ length: info.frameCount }, (_, f) => pixels.subarray(f * size, (f + 1) * size)) };
}

function rejection(action: () => unknown): ImportRejection {
  try {
    action();
  } catch (error) {
    if (error instanceof ImportRejection) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

function psnr(actual: Uint8Array[], expected: Uint8Array[]): number {
  let sum = 0;
  let count = 0;
  expected.forEach((frame, f) => frame.forEach((v, i) => ((sum += (v - actual[f]![i]!) ** 2), count++)));
  return sum === 0 ? Infinity : 10 * Math.log10((255 * 255) / (sum / count));
}

function maxError(actual: Uint8Array[], expected: Uint8Array[]): number {
  let max = 0;
  expected.forEach((frame, f) => frame.forEach((v, i) => (max = Math.max(max, Math.abs(v - actual[f]![i]!)))));
  return max;
}

/** Lossless: equal; near-lossless: `maxError` levels at most; lossy: PSNR of the 8-bit gray in dB. */
type Bound = 'exact' | { maxError: number } | { psnr: number };

interface Case {
  readonly label: string;
  readonly source: SourceName;
  readonly syntax: string;
  readonly bound: Bound;
  readonly photometric?: string;
  /** The file is the source made MONOCHROME1: its gray is the source's inverted. */
  readonly inverted?: boolean;
  /** Compared with dcmtk's own decoding of the file (dcmdjpeg), not with the source. */
  readonly againstDcmdjpeg?: boolean;
  /** Makes the file from the source file. */
  readonly make: (input: string, output: string) => string | Promise<string>;
}

const tool = (name: string, ...args: string[]) => (input: string, output: string) => transcode(name, args, input, output);
const then =
  (...steps: ((input: string, output: string) => string)[]) =>
  (input: string, output: string) =>
    steps.reduce((file, step, k) => step(file, k === steps.length - 1 ? output : `${output}.${k}.dcm`), input);
const set =
  (...assignments: string[]) =>
  (input: string, output: string) =>
    modified(input, output, assignments);

const TS = {
  implicit: '1.2.840.10008.1.2',
  explicit: '1.2.840.10008.1.2.1',
  big: '1.2.840.10008.1.2.2',
  deflated: '1.2.840.10008.1.2.1.99',
  rle: '1.2.840.10008.1.2.5',
  baseline: '1.2.840.10008.1.2.4.50',
  extended: '1.2.840.10008.1.2.4.51',
  lossless: '1.2.840.10008.1.2.4.57',
  sv1: '1.2.840.10008.1.2.4.70',
  ls: '1.2.840.10008.1.2.4.80',
  nearLs: '1.2.840.10008.1.2.4.81',
  j2k: '1.2.840.10008.1.2.4.90',
  j2kLossy: '1.2.840.10008.1.2.4.91',
  ht: '1.2.840.10008.1.2.4.201',
  htRpcl: '1.2.840.10008.1.2.4.202',
  htLossy: '1.2.840.10008.1.2.4.203',
} as const;

const DCMTK_CASES: Case[] = [
  { label: 'implicit VR', source: 'gray', syntax: TS.implicit, bound: 'exact', make: tool('dcmconv', '+ti') },
  { label: 'explicit VR big endian, 8-bit', source: 'gray', syntax: TS.big, bound: 'exact', make: tool('dcmconv', '+tb') },
  // From implicit VR, dcmtk writes 8-bit pixel data as OW: byte-swapped words, split across odd-sized frames.
  { label: 'explicit VR big endian, 8-bit OW, odd size', source: 'odd', syntax: TS.big, bound: 'exact', make: then(tool('dcmconv', '+ti'), tool('dcmconv', '+tb')) },
  { label: 'explicit VR big endian, RGB', source: 'rgb', syntax: TS.big, bound: 'exact', make: tool('dcmconv', '+tb') },
  { label: 'explicit VR big endian, 12-bit window', source: 'xa12', syntax: TS.big, bound: 'exact', make: tool('dcmconv', '+tb') },
  { label: 'explicit VR big endian, 16-bit VOI LUT', source: 'xa16Voi', syntax: TS.big, bound: 'exact', make: tool('dcmconv', '+tb') },
  { label: 'deflated, 8-bit', source: 'gray', syntax: TS.deflated, bound: 'exact', make: tool('dcmconv', '+td') },
  { label: 'deflated, 16-bit', source: 'xa16', syntax: TS.deflated, bound: 'exact', make: tool('dcmconv', '+td') },
  { label: 'RLE, 8-bit', source: 'gray', syntax: TS.rle, bound: 'exact', make: tool('dcmcrle') },
  { label: 'RLE, RGB', source: 'rgb', syntax: TS.rle, bound: 'exact', make: tool('dcmcrle') },
  { label: 'RLE, YBR_FULL', source: 'ybr', syntax: TS.rle, bound: 'exact', photometric: 'YBR_FULL', make: tool('dcmcrle') },
  { label: 'RLE, 12-bit window', source: 'xa12', syntax: TS.rle, bound: 'exact', make: tool('dcmcrle') },
  { label: 'RLE, 16-bit', source: 'xa16', syntax: TS.rle, bound: 'exact', make: tool('dcmcrle') },
  { label: 'native RGB, planar (dcmdjpeg +pl)', source: 'rgb', syntax: TS.explicit, bound: 'exact', make: then(tool('dcmcjpeg', '+el'), tool('dcmdjpeg', '+pl')) },
  { label: 'JPEG baseline, 8-bit', source: 'gray', syntax: TS.baseline, bound: { psnr: 38 }, make: tool('dcmcjpeg', '+eb') },
  { label: 'JPEG baseline, YBR_FULL_422', source: 'rgb', syntax: TS.baseline, bound: { psnr: 35 }, photometric: 'YBR_FULL_422', make: tool('dcmcjpeg', '+eb') },
  { label: 'JPEG extended, 8-bit', source: 'gray', syntax: TS.extended, bound: { psnr: 38 }, make: tool('dcmcjpeg', '+ee') },
  { label: 'JPEG baseline, 8-bit, as dcmdjpeg decodes it', source: 'odd', syntax: TS.baseline, bound: { maxError: 1 }, againstDcmdjpeg: true, make: tool('dcmcjpeg', '+eb') },
  // dcmcjpeg rescales >8-bit data it compresses lossily (dropping VOI LUTs and the modality
  // rescale, moving the window), so the 12-bit decoder is held to IJG's own decoding instead.
  { label: 'JPEG extended, 12-bit window, as dcmdjpeg decodes it', source: 'xa12', syntax: TS.extended, bound: { maxError: 1 }, againstDcmdjpeg: true, make: tool('dcmcjpeg', '+ee') },
  { label: 'JPEG extended, 12-bit MONOCHROME1, as dcmdjpeg decodes it', source: 'xa12Mono1', syntax: TS.extended, bound: { maxError: 1 }, againstDcmdjpeg: true, make: tool('dcmcjpeg', '+ee') },
  { label: 'JPEG lossless, 8-bit', source: 'gray', syntax: TS.lossless, bound: 'exact', make: tool('dcmcjpeg', '+el') },
  { label: 'JPEG lossless, 12-bit VOI LUT', source: 'xa12Voi', syntax: TS.lossless, bound: 'exact', make: tool('dcmcjpeg', '+el') },
  { label: 'JPEG lossless, 16-bit window', source: 'xa16', syntax: TS.lossless, bound: 'exact', make: tool('dcmcjpeg', '+el') },
  { label: 'JPEG lossless, RGB', source: 'rgb', syntax: TS.lossless, bound: 'exact', make: tool('dcmcjpeg', '+el') },
  { label: 'JPEG lossless SV1, 8-bit odd size', source: 'odd', syntax: TS.sv1, bound: 'exact', make: tool('dcmcjpeg', '+e1') },
  { label: 'JPEG lossless SV1, 12-bit MONOCHROME1', source: 'xa12Mono1', syntax: TS.sv1, bound: 'exact', make: tool('dcmcjpeg', '+e1') },
  { label: 'JPEG lossless SV1, 16-bit stored range', source: 'xa16Range', syntax: TS.sv1, bound: 'exact', make: tool('dcmcjpeg', '+e1') },
  { label: 'JPEG-LS lossless, 8-bit', source: 'gray', syntax: TS.ls, bound: 'exact', make: tool('dcmcjpls') },
  { label: 'JPEG-LS lossless, 12-bit window', source: 'xa12', syntax: TS.ls, bound: 'exact', make: tool('dcmcjpls') },
  { label: 'JPEG-LS lossless, 16-bit VOI LUT', source: 'xa16Voi', syntax: TS.ls, bound: 'exact', make: tool('dcmcjpls') },
  { label: 'JPEG-LS lossless, RGB', source: 'rgb', syntax: TS.ls, bound: 'exact', make: tool('dcmcjpls') },
  // NEAR = 2: every stored value within 2, so 8-bit gray within 2 levels.
  { label: 'JPEG-LS near-lossless, 8-bit', source: 'gray', syntax: TS.nearLs, bound: { maxError: 2 }, make: tool('dcmcjpls', '+en') },
  // Within 2 of 4096 stored levels, through a 3000-wide window: within 1 gray level.
  { label: 'JPEG-LS near-lossless, 12-bit window', source: 'xa12', syntax: TS.nearLs, bound: { maxError: 1 }, make: tool('dcmcjpls', '+en') },
  { label: 'MONOCHROME1 (dcmodify), 8-bit', source: 'gray', syntax: TS.explicit, bound: 'exact', photometric: 'MONOCHROME1', inverted: true, make: set('PhotometricInterpretation=MONOCHROME1') },
  { label: 'MONOCHROME1, 8-bit RLE', source: 'mono1', syntax: TS.rle, bound: 'exact', photometric: 'MONOCHROME1', make: tool('dcmcrle') },
];

const GDCM_CASES: Case[] = [
  { label: 'RLE (GDCM), odd size', source: 'odd', syntax: TS.rle, bound: 'exact', make: tool('gdcmconv', '--rle') },
  { label: 'JPEG-LS (GDCM), odd size', source: 'odd', syntax: TS.ls, bound: 'exact', make: tool('gdcmconv', '--jpegls') },
  { label: 'JPEG 2000 lossless, 8-bit', source: 'gray', syntax: TS.j2k, bound: 'exact', make: tool('gdcmconv', '--j2k') },
  { label: 'JPEG 2000 lossless, 12-bit window', source: 'xa12', syntax: TS.j2k, bound: 'exact', make: tool('gdcmconv', '--j2k') },
  { label: 'JPEG 2000 lossless, 16-bit VOI LUT', source: 'xa16Voi', syntax: TS.j2k, bound: 'exact', make: tool('gdcmconv', '--j2k') },
  { label: 'JPEG 2000 lossless, RGB', source: 'rgb', syntax: TS.j2k, bound: 'exact', make: tool('gdcmconv', '--j2k') },
  // GDCM writes RGB; the codestream's reversible colour transform is what YBR_RCT declares.
  { label: 'JPEG 2000 lossless, YBR_RCT', source: 'rgb', syntax: TS.j2k, bound: 'exact', photometric: 'YBR_RCT', make: then(tool('gdcmconv', '--j2k'), set('PhotometricInterpretation=YBR_RCT')) },
  { label: 'JPEG 2000 lossy, 8-bit', source: 'gray', syntax: TS.j2kLossy, bound: { psnr: 35 }, make: tool('gdcmconv', '--j2k', '--lossy', '-q', '45') },
  { label: 'JPEG 2000 lossy, YBR_ICT', source: 'rgb', syntax: TS.j2kLossy, bound: { psnr: 35 }, photometric: 'YBR_ICT', make: then(tool('gdcmconv', '--j2k', '--lossy', '-q', '45'), set('PhotometricInterpretation=YBR_ICT')) },
];

async function checkCase(c: Case): Promise<void> {
  const { file, fixture: sourceFixture } = source(c.source);
  const fixture = { ...sourceFixture, gray: c.inverted ? sourceFixture.gray.map((frame) => frame.map((v) => 255 - v)) : sourceFixture.gray };
  const made = await c.make(file, out(c.label));
  const { info, frames } = await importFrames(made);
  if (c.againstDcmdjpeg) fixture.gray = (await importFrames(transcode('dcmdjpeg', [], made, out(`${c.label}-dcmdjpeg`)))).frames;
  expect(info.transferSyntaxUid).toBe(c.syntax);
  if (c.photometric) expect(info.format.photometric).toBe(c.photometric);
  expect(frames).toHaveLength(fixture.frames);
  expect([info.format.columns, info.format.rows]).toEqual([fixture.columns, fixture.rows]);
  if (c.bound === 'exact') {
    frames.forEach((frame, f) => expect(Buffer.from(frame).equals(Buffer.from(fixture.gray[f]!)), `frame ${f + 1}`).toBe(true));
  } else if ('maxError' in c.bound) {
    expect(maxError(frames, fixture.gray)).toBeLessThanOrEqual(c.bound.maxError);
  } else {
    expect(psnr(frames, fixture.gray)).toBeGreaterThanOrEqual(c.bound.psnr);
  }
}

describe('native frames written by makeDicom', () => {
  it.each(['gray', 'odd', 'rgb', 'rgbPlanar', 'ybr', 'mono1', 'xa12', 'xa12Voi', 'xa12Mono1', 'xa16', 'xa16Voi', 'xa16Range'] as const)('%s', async (name) => {
    const { file, fixture } = source(name);
    const { frames } = await importFrames(file);
    frames.forEach((frame, f) => expect(Buffer.from(frame).equals(Buffer.from(fixture.gray[f]!)), `frame ${f + 1}`).toBe(true));
  });
});

describe.skipIf(!hasDcmtk)('encoded by dcmtk', () => {
  it.each(DCMTK_CASES.map((c) => [c.label, c] as const))('%s', async (_, c) => checkCase(c));

  it.each([
    ['8-bit entries', []],
    ['16-bit entries', ['+pe']],
  ] as const)('PALETTE COLOR (dcmquant, %s) is the luma of dcmtk rendering it', async (_, args) => {
    const palette = transcode('dcmquant', args, source('rgb').file, out(`palette-${args.join('')}`));
    const { info, frames } = await importFrames(palette);
    expect(info.format.photometric).toBe('PALETTE COLOR');
    const rendered = dcm2pnmRgbFrames(palette, FRAMES);
    const expected = rendered.map((rgb) => Uint8Array.from({ length: rgb.length / 3 }, (_, i) => expectedLuma(rgb[3 * i]!, rgb[3 * i + 1]!, rgb[3 * i + 2]!)));
    // dcmtk scales 16-bit entries to 8 bits its own way: within one level.
    expect(maxError(frames, expected)).toBeLessThanOrEqual(1);
  });
});

describe.skipIf(!hasGdcm)('encoded by GDCM', () => {
  it.each(GDCM_CASES.map((c) => [c.label, c] as const))('%s', async (_, c) => checkCase(c));
});

describe('HTJ2K encoded by OpenJPH', () => {
  let encode: Awaited<ReturnType<typeof htj2kEncoder>>;
  beforeAll(async () => {
    encode = await htj2kEncoder();
  });

  it.each([
    ['lossless, 12-bit window', TS.ht, 'xa12', { lossless: true }, 'exact'],
    ['lossless, 8-bit odd size', TS.ht, 'odd', { lossless: true }, 'exact'],
    ['lossless RPCL, 16-bit VOI LUT', TS.htRpcl, 'xa16Voi', { lossless: true, rpcl: true }, 'exact'],
    ['lossy, 8-bit', TS.htLossy, 'gray', { lossless: false }, { psnr: 40 }],
    ['lossy, 12-bit VOI LUT', TS.htLossy, 'xa12Voi', { lossless: false }, { psnr: 40 }],
  ] as const)('%s', async (_, syntax, name, quality, bound) => {
    const options: FixtureOptions = SOURCES[name];
    const bits = options.bits ?? 8;
    const fixture = makeDicom({
      ...options,
      encapsulated: { transferSyntaxUid: syntax, encode: (samples) => encode(samples, { width: options.columns!, height: options.rows!, bits, components: 1, ...quality }) },
    });
    const file = out(`htj2k-${name}`);
    fs.writeFileSync(file, fixture.bytes);
    const { info, frames } = await importFrames(file);
    expect(info.transferSyntaxUid).toBe(syntax);
    if (bound === 'exact') frames.forEach((frame, f) => expect(Buffer.from(frame).equals(Buffer.from(fixture.gray[f]!)), `frame ${f + 1}`).toBe(true));
    else expect(psnr(frames, fixture.gray)).toBeGreaterThanOrEqual(bound.psnr);
  });
});

describe.skipIf(!hasDcmtk)('frames of another JPEG process', () => {
  it('are refused: the transfer syntax says which process its frames are', () => {
    const bytes = fs.readFileSync(transcode('dcmcjpeg', ['+el'], source('gray').file, out('lossless')));
    const uid = bytes.indexOf('1.2.840.10008.1.2.4.57');
    bytes.write('1.2.840.10008.1.2.4.50', uid, 'latin1');
    const relabelled = out('relabelled');
    fs.writeFileSync(relabelled, bytes);
    expect(rejection(() => readDicomFile(relabelled, 'relabelled.dcm'))).toMatchObject({ code: 'unsupported_transfer_syntax' });
  });
});

describe.skipIf(!hasDcmtk)('in a decode worker thread', () => {
  it('loads each codec in the worker and decodes as the main thread does', async () => {
    const pool = createDecodePool(1);
    try {
      for (const [args, tool] of [[['+ee'], 'dcmcjpeg'], [['+el'], 'dcmcjpeg'], [[], 'dcmcjpls']] as const) {
        const file = transcode(tool, args, source('xa12').file, out(`worker-${tool}${args.join('')}`));
        const { info, frames } = await importFrames(file);
        const { pixels } = await pool.decode({ filePath: info.filePath, format: info.format, firstFrame: 0, frames: info.frames, gzip: false });
        expect(Buffer.from(pixels).equals(Buffer.concat(frames)), `${tool} ${args.join(' ')}`).toBe(true);
      }
    } finally {
      await pool.close();
    }
  });
});
