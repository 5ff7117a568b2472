/**
 * Deflated uploads (issue 24, item 5): a file inflates streaming to disk, its header is checked
 * against the budgets before its pixel data is inflated, and a bomb (1 MiB that inflates to 1 GiB)
 * is refused with the process's memory staying far below what the bomb stands for, also three at once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import dicomParser from 'dicom-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { budgetsWithMemory } from '../../../src/server/dicom/budgets.ts';
import { inflateDeflatedFile } from '../../../src/server/dicom/deflated.ts';
import { readDicomUpload } from '../../../src/server/dicom/dicom-file.ts';
import { ImportRejection } from '../../../src/domain/import-rejection.ts';
import { createHeaderReader } from '../../../src/server/import/header-reader.ts';
import { makeDicom } from '../../support/dicom-fixtures.ts';
import { announcingHeader, deflatedBomb, DEFLATED_TRANSFER_SYNTAX, gigabyteZeroBomb } from '../../support/attacks/files.ts';

const MiB = 1024 ** 2;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-deflate-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function write(bytes: Buffer): string {
  const file = path.join(dir, `f${counter++}.dcm`);
  fs.writeFileSync(file, bytes);
  return file;
}

async function rejection(action: Promise<unknown>): Promise<ImportRejection> {
  try {
    await action;
  } catch (error) {
    if (error instanceof ImportRejection) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

/** A well-formed fixture, its data set raw-deflated behind its meta group. */
function deflatedFixture(frames: number): Buffer {
  const plain = makeDicom({ frames, rows: 8, columns: 8, transferSyntaxUid: DEFLATED_TRANSFER_SYNTAX }).bytes;
  const metaEnd = 144 + plain.readUInt32LE(140);
  return Buffer.concat([plain.subarray(0, metaEnd), zlib.deflateRawSync(plain.subarray(metaEnd))]);
}

/**
 * The highest resident set size (and array buffer bytes) seen while `action` runs, above what the
 * process held before it: sampled every few milliseconds, and the kernel's own peak (maxRSS) too.
 */
async function peakGrowth<T>(action: () => Promise<T>): Promise<{ result: T; rssMiB: number; arrayBuffersMiB: number }> {
  const before = process.memoryUsage();
  let rss = before.rss;
  let arrayBuffers = before.arrayBuffers;
  const sample = setInterval(() => {
    const now = process.memoryUsage();
    rss = Math.max(rss, now.rss);
    arrayBuffers = Math.max(arrayBuffers, now.arrayBuffers);
  }, 5);
  try {
    const result = await action();
    rss = Math.max(rss, process.resourceUsage().maxRSS * 1024);
    return { result, rssMiB: (rss - before.rss) / MiB, arrayBuffersMiB: (arrayBuffers - before.arrayBuffers) / MiB };
  } finally {
    clearInterval(sample);
  }
}

describe('a deflated upload', () => {
  it('is inflated to explicit VR little endian and read like any other file', async () => {
    const file = await readDicomUpload(write(deflatedFixture(3)), 'small.dcm');
    expect(file).toMatchObject({ transferSyntaxUid: DEFLATED_TRANSFER_SYNTAX, frameCount: 3 });
    expect(file.filePath.endsWith('.inflated.dcm')).toBe(true);
    expect(dicomParser.readPart10Header(fs.readFileSync(file.filePath)).string('x00020010')).toBe('1.2.840.10008.1.2.1');
  });

  it('stops inflating at the byte budget', async () => {
    // A plausible header (one frame), then 64 MiB of zeros where 16 MiB are allowed.
    const source = write(await deflatedBomb(64 * MiB, announcingHeader(1)));
    const target = path.join(dir, 'budget.inflated.dcm');
    const refused = await rejection(
      inflateDeflatedFile(source, target, { maxInflatedBytes: 16 * MiB, maxHeaderBytes: 16 * MiB, checkHeader: () => true }, 'bomb.dcm'),
    );
    expect(refused.code).toBe('over_budget');
    expect(refused.message).toMatch(/^bomb\.dcm: its deflated data set inflates to more than 16,777,216 bytes/);
    expect(fs.statSync(target).size).toBeLessThan(17 * MiB);
  });

  it('is refused on its header before its pixel data is inflated', async () => {
    // 65,536 frames of 512 x 512 announced: 16 GiB, where 64 MiB are allowed.
    const source = write(await deflatedBomb(48 * MiB, announcingHeader(65_536)));
    const refused = await rejection(readDicomUpload(source, 'announced.dcm', budgetsWithMemory(64 * MiB)));
    expect(refused.code).toBe('over_budget');
    expect(refused.message).toMatch(/^announced\.dcm: its 65,536 frames of 512x512 need 16,384 MiB where this server allows 64 MiB/);
    // Refused at the first look at the header: a fraction of the 48 MiB was inflated.
    expect(fs.statSync(`${source}.inflated.dcm`).size).toBeLessThan(8 * MiB);
  });

  it('that is damaged is refused as undecodable', async () => {
    const bytes = deflatedFixture(2);
    const refused = await rejection(readDicomUpload(write(bytes.subarray(0, bytes.length - 40)), 'cut.dcm'));
    expect(refused.code).toBe('decode_failed');
  });
});

describe('a deflate bomb of 1 MiB inflating to 1 GiB', () => {
  // A budget the bomb fits in, so only streaming keeps the gigabyte out of memory.
  const budgets = budgetsWithMemory(2 * 1024 * MiB);

  it('is refused, the process growing by a fraction of the gigabyte', async () => {
    const bomb = await gigabyteZeroBomb();
    expect(bomb.length).toBeLessThan(1.5 * MiB);
    const source = write(bomb);
    const { result, rssMiB, arrayBuffersMiB } = await peakGrowth(() => rejection(readDicomUpload(source, 'bomb.dcm', budgets)));
    // Zeros read as element (0000,0000) without a value representation: refused on the first look.
    expect(result.code).toBe('not_dicom');
    expect(result.message).toMatch(/not DICOM: element \(0000,0000\) has no value representation/);
    expect(arrayBuffersMiB).toBeLessThan(300);
    expect(rssMiB).toBeLessThan(400);
  });

  it('behind a well-formed element too long to end within the header limit is refused there, bounded', async () => {
    // (0009,0010) LO private creator, then (0009,1000) OB of 2 GiB announced: ordered and well formed,
    // so only the header limit stops it.
    const creator = Buffer.from([0x09, 0x00, 0x10, 0x00, 0x4c, 0x4f, 0x02, 0x00, 0x58, 0x20]);
    const long = Buffer.from([0x09, 0x00, 0x00, 0x10, 0x4f, 0x42, 0x00, 0x00, 0xf0, 0xff, 0xff, 0x7f]);
    const source = write(await deflatedBomb(1024 * MiB, Buffer.concat([creator, long])));
    const { result, rssMiB } = await peakGrowth(() => rejection(readDicomUpload(source, 'long.dcm', budgets)));
    expect(result.code).toBe('over_budget');
    expect(result.message).toMatch(/no pixel data within its first 64 MiB/);
    expect(rssMiB).toBeLessThan(400);
  });

  it('three at once in the header workers are refused, the process still bounded', async () => {
    const bomb = await gigabyteZeroBomb();
    const sources = [0, 1, 2].map(() => write(bomb));
    const reader = createHeaderReader(2, budgets);
    try {
      const { result, rssMiB } = await peakGrowth(() => Promise.all(sources.map((source, n) => rejection(reader.read(source, `bomb-${n}.dcm`)))));
      expect(result.map((r) => r.code)).toEqual(['not_dicom', 'not_dicom', 'not_dicom']);
      expect(rssMiB).toBeLessThan(900);
    } finally {
      await reader.close();
    }
  }, 120_000);
});
