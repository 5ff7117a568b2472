/**
 * Frames on the wire as the console encoded them (issue 27). Files made by real encoders (dcmtk,
 * GDCM; OpenJPH for HTJ2K) are imported through the API; the frame route must then send a frame
 * pack that holds the file's own frame bytes, unchanged (or, for uncompressed and 12-bit JPEG
 * frames, a lossless JPEG-LS of the gray), and decoding that pack as the page does gives exactly
 * the gray the server stores for its own readers; that gray is in turn dcmtk's (or GDCM's) own
 * decode of the file: exactly for lossless syntaxes, within one level for lossy JPEG (IJG's
 * IDCT rounds differently from libjpeg-turbo's). Cases whose tool is missing are skipped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecordImagesSchema, type RecordImages } from '../../src/domain/images.ts';
import { ImportBatchSchema } from '../../src/domain/imports.ts';
import { FRAME_PACK_MEDIA_TYPE, readFramePack } from '../../src/domain/pixels/frame-pack.ts';
import type { PixelEncoding } from '../../src/domain/pixels/pixel-format.ts';
import { initCodecFor } from '../../src/server/dicom/codecs/registry.ts';
import { readDicomUpload, type DicomFile } from '../../src/server/dicom/dicom-file.ts';
import { createBmodeRenderer } from '../../src/domain/synthetic/bmode-frame.ts';
import { createPullbackModel } from '../../src/domain/synthetic/pullback-model.ts';
import { decodeRange } from '../../src/server/import/decode-range.ts';
import { makeDicom, type Fixture, type FixtureOptions } from '../support/dicom-fixtures.ts';
import { decodePack } from '../support/frame-chunks.ts';
import { hasTool, htj2kEncoder, transcode } from '../support/real-encoders.ts';
import { closeSession, get, openSession, upload, waitForImport, type Session } from './import-session.ts';
import { clinicianAuthorization, postgresUnavailable } from './test-server.ts';

const hasDcmtk = ['dcmcjpeg', 'dcmdjpeg', 'dcmcjpls', 'dcmdjpls', 'dcmcrle', 'dcmdrle'].every(hasTool);
const hasGdcm = hasTool('gdcmconv');
if (!hasDcmtk) console.warn('dcmtk is not installed: its frame pack cases are skipped (apt-get install dcmtk).');
if (!hasGdcm) console.warn('GDCM (gdcmconv) is not installed: its frame pack cases are skipped (apt-get install libgdcm-tools).');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-packs-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Two chunks (16 + 4 frames), not square. */
const GRAY: FixtureOptions = { frames: 20, rows: 40, columns: 56 };
const RGB: FixtureOptions = { ...GRAY, color: 'rgb' };
/** Consecutive frames of a pullback, uncompressed: the server's pack predicts most from the frame before. */
const PULLBACK_SIDE = 128;
const pullback = createBmodeRenderer(createPullbackModel({ seed: 5, frameCount: 40, frameSizePx: PULLBACK_SIDE, pixelSpacingMm: 0.04 }));
const pullbackFrames = Array.from({ length: 20 }, (_, f) => pullback.renderFrame(f + 10));
const PULLBACK: FixtureOptions = { frames: 20, rows: PULLBACK_SIDE, columns: PULLBACK_SIDE, pixel: (f, x, y) => pullbackFrames[f]![y * PULLBACK_SIDE + x]! };
const XA12: FixtureOptions = { kind: 'xa', frames: 20, rows: 48, columns: 40, bits: 12, window: { center: 1900, width: 3000 } };

let counter = 0;
const fileFor = (label: string) => path.join(dir, `${counter++}-${label.replace(/[^a-z0-9]+/gi, '-')}.dcm`);
let patients = 0;

function writeSource(options: FixtureOptions): { file: string; fixture: Fixture } {
  const fixture = makeDicom({ syntax: 'explicit', ...options, patientId: `PACK-${process.pid}-${++patients}` });
  const file = fileFor('source');
  fs.writeFileSync(file, fixture.bytes);
  return { file, fixture };
}

/** The file's frames as it holds them (fragments of a frame joined), and its gray as an import decodes it. */
async function readFile(file: string): Promise<{ info: DicomFile; stored: Buffer[]; gray: Buffer[] }> {
  const info = await readDicomUpload(file, path.basename(file));
  const bytes = fs.readFileSync(file);
  const stored = info.frames.map((location) => Buffer.concat(location.map(([offset, length]) => bytes.subarray(offset, offset + length))));
  await initCodecFor(info.format);
  const { pixels } = decodeRange({ filePath: info.filePath, format: info.format, firstFrame: 0, frames: info.frames, gzip: false });
  const size = info.format.rows * info.format.columns;
  return { info, stored, gray: stored.map((_, f) => Buffer.from(pixels.subarray(f * size, (f + 1) * size))) };
}

interface Case {
  readonly label: string;
  readonly source: FixtureOptions;
  readonly syntax: string;
  /** Made from the explicit VR source file. */
  readonly make: (input: string, output: string) => string;
  /** The pack's frames: the file's own ('file', in its encoding) or JPEG-LS of the gray. */
  readonly pack: { readonly asStored: boolean; readonly encoding: PixelEncoding };
  /** The reference decoder (dcmtk or GDCM to an uncompressed file); null: the file is uncompressed, its gray is the source's. */
  readonly reference: ((input: string, output: string) => string) | null;
  /** Gray levels the reference may differ by: 0 for lossless syntaxes. */
  readonly tolerance: number;
  /** Frames of a pullback: some of the packs' frames are predicted from the one before. */
  readonly predicts?: boolean;
}

const tool =
  (name: string, ...args: string[]) =>
  (input: string, output: string) =>
    transcode(name, args, input, output);
const copy = (input: string) => input;

const DCMTK_CASES: Case[] = [
  { label: 'JPEG baseline (dcmcjpeg)', source: GRAY, syntax: '1.2.840.10008.1.2.4.50', make: tool('dcmcjpeg', '+eb'), pack: { asStored: true, encoding: 'jpeg' }, reference: tool('dcmdjpeg'), tolerance: 1 },
  // dcmdjpeg converts the YBR frames to RGB whose luma is taken; the import takes the luma the codestream holds.
  { label: 'JPEG baseline YBR_FULL_422 (dcmcjpeg, colour)', source: RGB, syntax: '1.2.840.10008.1.2.4.50', make: tool('dcmcjpeg', '+eb'), pack: { asStored: true, encoding: 'jpeg' }, reference: tool('dcmdjpeg'), tolerance: 2 },
  { label: 'JPEG lossless process 14 SV1 (dcmcjpeg +e1)', source: GRAY, syntax: '1.2.840.10008.1.2.4.70', make: tool('dcmcjpeg', '+e1'), pack: { asStored: true, encoding: 'jpeg-lossless' }, reference: tool('dcmdjpeg'), tolerance: 0 },
  { label: 'JPEG-LS lossless (dcmcjpls)', source: GRAY, syntax: '1.2.840.10008.1.2.4.80', make: tool('dcmcjpls'), pack: { asStored: true, encoding: 'jpeg-ls' }, reference: tool('dcmdjpls'), tolerance: 0 },
  { label: 'RLE lossless (dcmcrle)', source: GRAY, syntax: '1.2.840.10008.1.2.5', make: tool('dcmcrle'), pack: { asStored: true, encoding: 'rle' }, reference: tool('dcmdrle'), tolerance: 0 },
  { label: 'RLE lossless RGB (dcmcrle)', source: RGB, syntax: '1.2.840.10008.1.2.5', make: tool('dcmcrle'), pack: { asStored: true, encoding: 'rle' }, reference: tool('dcmdrle'), tolerance: 0 },
  // The 12-bit decoder's level-shift correction is server code: the page gets the gray, losslessly.
  { label: '12-bit JPEG extended (dcmcjpeg +ee), as JPEG-LS of the gray', source: XA12, syntax: '1.2.840.10008.1.2.4.51', make: tool('dcmcjpeg', '+ee'), pack: { asStored: false, encoding: 'jpeg-ls' }, reference: tool('dcmdjpeg'), tolerance: 1 },
];

const GDCM_CASES: Case[] = [
  { label: 'JPEG baseline (gdcmconv -J --lossy)', source: GRAY, syntax: '1.2.840.10008.1.2.4.50', make: tool('gdcmconv', '-J', '--lossy', '-q', '90'), pack: { asStored: true, encoding: 'jpeg' }, reference: tool('gdcmconv', '--raw'), tolerance: 1 },
  { label: 'JPEG-LS lossless (gdcmconv -L)', source: GRAY, syntax: '1.2.840.10008.1.2.4.80', make: tool('gdcmconv', '-L'), pack: { asStored: true, encoding: 'jpeg-ls' }, reference: tool('gdcmconv', '--raw'), tolerance: 0 },
  { label: 'JPEG 2000 lossless (gdcmconv --j2k)', source: GRAY, syntax: '1.2.840.10008.1.2.4.90', make: tool('gdcmconv', '--j2k'), pack: { asStored: true, encoding: 'jpeg2000' }, reference: tool('gdcmconv', '--raw'), tolerance: 0 },
];

const NATIVE_CASES: Case[] = [
  { label: 'uncompressed, as JPEG-LS of the gray', source: GRAY, syntax: '1.2.840.10008.1.2.1', make: copy, pack: { asStored: false, encoding: 'jpeg-ls' }, reference: null, tolerance: 0 },
  { label: 'uncompressed RGB, as JPEG-LS of the gray', source: RGB, syntax: '1.2.840.10008.1.2.1', make: copy, pack: { asStored: false, encoding: 'jpeg-ls' }, reference: null, tolerance: 0 },
  {
    label: 'uncompressed pullback, as JPEG-LS of the gray, frames predicted from the one before',
    source: PULLBACK,
    syntax: '1.2.840.10008.1.2.1',
    make: copy,
    pack: { asStored: false, encoding: 'jpeg-ls' },
    reference: null,
    tolerance: 0,
    predicts: true,
  },
];

function maxDifference(actual: readonly Uint8Array[], expected: readonly Uint8Array[]): number {
  let worst = 0;
  expected.forEach((frame, f) => frame.forEach((v, i) => (worst = Math.max(worst, Math.abs(v - actual[f]![i]!)))));
  return worst;
}

describe.skipIf(postgresUnavailable)('frame packs of imported files', () => {
  let session: Session;
  beforeAll(async () => {
    session = await openSession();
  });
  afterAll(() => closeSession(session));

  /** Imports one file through the API; the record's image lists once done. */
  async function importFile(file: string): Promise<RecordImages> {
    const response = await upload(session, [{ name: path.basename(file), bytes: fs.readFileSync(file) }]);
    expect(response.statusCode, response.body).toBe(202);
    const done = await waitForImport(session, ImportBatchSchema.parse(response.json()).imports[0]!.importId);
    expect(done.error, JSON.stringify(done.error)).toBeNull();
    return RecordImagesSchema.parse((await get(session, `/api/demo/records/${done.recordId}/images`)).json());
  }

  /** Every frame pack of a series, from the frame route, as the page receives them. */
  async function packsOf(images: RecordImages, series: 'bmode' | 'angio') {
    const packs = [];
    for (const chunk of images[series].chunks) {
      const response = await get(session, `/api/demo/${chunk}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe(FRAME_PACK_MEDIA_TYPE);
      expect(response.headers['content-encoding']).toBeUndefined();
      packs.push(response.rawPayload);
    }
    return packs;
  }

  /** The gray the server keeps for its own readers (border detection, report images): its gzip chunks. */
  function storedGray(images: RecordImages, series: 'bmode' | 'angio'): Buffer[] {
    const { width, height, chunks } = images[series];
    const gray = chunks.map((_, index) =>
      zlib.gunzipSync(fs.readFileSync(path.join(session.server.storeDir, 'demo', images.recordId, images.version, series, `${String(index).padStart(5, '0')}.u8.gz`))),
    );
    const all = Buffer.concat(gray);
    return Array.from({ length: all.length / (width * height) }, (_, f) => all.subarray(f * width * height, (f + 1) * width * height));
  }

  async function checkCase(c: Case): Promise<void> {
    const { file: source, fixture } = writeSource(c.source);
    const file = c.make(source, fileFor(c.label));
    const { info, stored } = await readFile(file);
    expect(info.transferSyntaxUid).toBe(c.syntax);
    const images = await importFile(file);
    const series = c.source.kind === 'xa' ? 'angio' : 'bmode';
    expect(images[series].chunkFormat).toBe('frame-pack');
    const packs = (await packsOf(images, series)).map((bytes) => ({ bytes, ...readFramePack(bytes) }));
    expect(packs.map((pack) => pack.frames.length)).toEqual([16, 4]);
    for (const pack of packs) {
      expect(pack.format.encoding).toBe(c.pack.encoding);
      // The image lists name the codec of every pack (the page loads it before the first one arrives).
      expect(images[series].packCodec).toEqual({ encoding: pack.format.encoding, bitsStored: pack.format.bitsStored });
      if (c.pack.asStored) expect(pack.format).toEqual(info.format);
      else expect(pack.format).toMatchObject({ photometric: 'MONOCHROME2', bitsStored: 8, samplesPerPixel: 1 });
    }
    // Frames the console encoded are never predicted; a pullback's gray mostly is.
    if (c.pack.asStored) expect(packs.every((pack) => pack.predict === undefined)).toBe(true);
    if (c.predicts) expect(packs[0]!.predict!.filter(Boolean).length).toBeGreaterThan(10);
    if (c.pack.asStored) {
      const sent = packs.flatMap((pack) => pack.frames);
      sent.forEach((frame, f) => expect(Buffer.from(frame).equals(stored[f]!), `frame ${f + 1} is the file's own bytes`).toBe(true));
    }
    const decoded = (await Promise.all(packs.map((pack) => decodePack(pack.bytes)))).flat();
    const serverGray = storedGray(images, series);
    expect(decoded).toHaveLength(fixture.frames);
    decoded.forEach((frame, f) => expect(Buffer.from(frame).equals(serverGray[f]!), `frame ${f + 1} decodes to the server's gray`).toBe(true));
    // The server's gray against an independent decoder of the file, turned to gray as an import does.
    const reference = c.reference ? (await readFile(c.reference(file, fileFor(`${c.label}-reference`)))).gray : null;
    if (reference) expect(maxDifference(decoded, reference)).toBeLessThanOrEqual(c.tolerance);
    else expect(maxDifference(decoded, fixture.gray)).toBe(0);
  }

  describe.skipIf(!hasDcmtk)('encoded by dcmtk', () => {
    it.each(DCMTK_CASES.map((c) => [c.label, c] as const))('%s', async (_, c) => checkCase(c));
  });

  describe.skipIf(!hasGdcm)('encoded by GDCM', () => {
    it.each(GDCM_CASES.map((c) => [c.label, c] as const))('%s', async (_, c) => checkCase(c));
  });

  describe('uncompressed', () => {
    it.each(NATIVE_CASES.map((c) => [c.label, c] as const))('%s', async (_, c) => checkCase(c));
  });

  it('HTJ2K lossless (OpenJPH, no command-line tool here writes it): the file\'s frames, decoding to the source exactly', async () => {
    const encode = await htj2kEncoder();
    const fixture = makeDicom({
      ...GRAY,
      patientId: `PACK-${process.pid}-${++patients}`,
      encapsulated: { transferSyntaxUid: '1.2.840.10008.1.2.4.201', encode: (samples) => encode(samples, { width: 56, height: 40, bits: 8, components: 1, lossless: true }) },
    });
    const file = fileFor('htj2k');
    fs.writeFileSync(file, fixture.bytes);
    const { stored } = await readFile(file);
    const images = await importFile(file);
    const packs = (await packsOf(images, 'bmode')).map((bytes) => ({ bytes, ...readFramePack(bytes) }));
    expect(packs.every((pack) => pack.format.encoding === 'htj2k')).toBe(true);
    packs.flatMap((pack) => pack.frames).forEach((frame, f) => expect(Buffer.from(frame).equals(stored[f]!), `frame ${f + 1}`).toBe(true));
    const decoded = (await Promise.all(packs.map((pack) => decodePack(pack.bytes)))).flat();
    expect(maxDifference(decoded, fixture.gray)).toBe(0);
    expect(maxDifference(decoded, storedGray(images, 'bmode'))).toBe(0);
  });

  it('answers 500 (details in the log only) for an imported pack damaged in storage, and sends no part of it', async () => {
    const { file } = writeSource(GRAY);
    const images = await importFile(transcode('dcmcrle', [], file, fileFor('damaged')));
    const stored = path.join(session.server.storeDir, 'demo', images.recordId, images.version, 'bmode', '00001.ivfp');
    fs.writeFileSync(stored, fs.readFileSync(stored).subarray(0, 200));
    const response = await get(session, `/api/demo/${images.bmode.chunks[1]}`);
    expect(response.statusCode).toBe(500);
    expect(response.json().message).toMatch(/^Something went wrong on our side/);
    expect((await get(session, `/api/demo/${images.bmode.chunks[0]}`)).statusCode).toBe(200);
  });

  it("another tenant's clinician gets 404 for a pack, not its bytes", async () => {
    const { file } = writeSource(GRAY);
    const images = await importFile(transcode('dcmcjpls', [], file, fileFor('tenant')));
    const acme = await clinicianAuthorization(session.server, 'acme');
    const response = await get(session, `/api/acme/${images.bmode.chunks[0]}`, 'acme', acme);
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).not.toBe(FRAME_PACK_MEDIA_TYPE);
    expect(response.json().message).toMatch(/No record/);
  });
});
