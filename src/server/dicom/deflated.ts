/**
 * Deflated explicit VR little endian (1.2.840.10008.1.2.1.99): everything after the File Meta group
 * is raw-deflated. An upload in it is inflated once into a new explicit VR little endian file (the
 * same meta header, its Transfer Syntax UID and group length rewritten), so the header parser and
 * the frame decoders read it like any other file.
 *
 * A megabyte of deflate can expand to a gigabyte, so the inflation streams to disk (a few chunks in
 * memory, whatever the ratio), the inflated header is checked against the budgets as soon as it is
 * complete (before any pixel data is inflated), and the whole stops at the byte budget.
 */
import fs from 'node:fs';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { ImportRejection, rejectFile } from '../../domain/import-rejection.ts';
import { EXPLICIT_LITTLE_ENDIAN } from './transfer-syntaxes.ts';

const PREAMBLE = 132;
/** Explicit VR whose length takes 4 bytes after 2 reserved ones (PS3.5 7.1.2). */
const LONG_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'SQ', 'SV', 'UC', 'UN', 'UR', 'UT', 'UV']);

/** One explicit VR little endian element of the meta group, header and value. */
function metaElement(group: number, element: number, vr: string, value: Buffer): Buffer {
  const long = LONG_VRS.has(vr);
  const head = Buffer.alloc(long ? 12 : 8);
  head.writeUInt16LE(group, 0);
  head.writeUInt16LE(element, 2);
  head.write(vr, 4, 'latin1');
  if (long) head.writeUInt32LE(value.length, 8);
  else head.writeUInt16LE(value.length, 6);
  return Buffer.concat([head, value]);
}

/**
 * The File Meta group of `bytes` (starting at the preamble) rewritten for explicit VR little
 * endian, and where the deflated data set starts.
 */
function rewriteMeta(bytes: Buffer, fileName: string): { meta: Buffer; dataStart: number } {
  const elements: Buffer[] = [];
  let p = PREAMBLE;
  while (p + 8 <= bytes.length && bytes.readUInt16LE(p) === 0x0002) {
    const element = bytes.readUInt16LE(p + 2);
    const vr = bytes.toString('latin1', p + 4, p + 6);
    const long = LONG_VRS.has(vr);
    const headLength = long ? 12 : 8;
    if (p + headLength > bytes.length) break;
    const length = long ? bytes.readUInt32LE(p + 8) : bytes.readUInt16LE(p + 6);
    if (p + headLength + length > bytes.length) throw rejectFile('truncated', fileName, 'the file ends inside its DICOM meta header.');
    const value = bytes.subarray(p + headLength, p + headLength + length);
    // The group length is recomputed below; the transfer syntax becomes the inflated one's.
    if (element === 0x0010) elements.push(metaElement(2, 0x0010, 'UI', Buffer.from(`${EXPLICIT_LITTLE_ENDIAN}\0`, 'latin1')));
    else if (element !== 0x0000) elements.push(metaElement(2, element, vr, Buffer.from(value)));
    p += headLength + length;
  }
  const body = Buffer.concat(elements);
  const groupLength = Buffer.alloc(4);
  groupLength.writeUInt32LE(body.length);
  const meta = Buffer.concat([bytes.subarray(0, PREAMBLE), metaElement(2, 0x0000, 'UL', groupLength), body]);
  return { meta, dataStart: p };
}

/** The meta group is read from this much of the file's start; real ones are a few hundred bytes. */
const META_WINDOW = 1024 * 1024;
/** The inflated header is first tried at this size, then at twice the size each time. */
const FIRST_HEADER_CHECK = 256 * 1024;

export interface InflateLimits {
  /** The inflated data set may not pass this many bytes (IMPORT_MEMORY_BUDGET_BYTES). */
  readonly maxInflatedBytes: number;
  /** The header (everything before the pixel data) must be complete within this many bytes. */
  readonly maxHeaderBytes: number;
  /**
   * Given the inflated file so far (meta group included), true once it holds the whole header and
   * the header fits the budgets (it throws an ImportRejection when it does not); false to be asked
   * again with more bytes.
   */
  readonly checkHeader: (inflatedHead: Buffer) => boolean;
}

function overBudget(fileName: string, maxInflatedBytes: number) {
  return rejectFile('over_budget', fileName, `its deflated data set inflates to more than ${maxInflatedBytes.toLocaleString('en-US')} bytes, this server's limit per file.`);
}

/**
 * Counts and passes on the inflated bytes, keeping the head in memory only until its header is
 * checked, and fails the pipeline (so inflation stops) at the first limit passed.
 */
function budgetGate(meta: Buffer, limits: InflateLimits, fileName: string): Transform {
  let inflated = 0;
  let head: Buffer[] | null = [meta];
  let headBytes = meta.length;
  let nextCheck = meta.length + FIRST_HEADER_CHECK;
  const headerChecked = (): boolean => {
    const whole = Buffer.concat(head!);
    head = [whole];
    return limits.checkHeader(whole);
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        inflated += chunk.length;
        if (inflated > limits.maxInflatedBytes) throw overBudget(fileName, limits.maxInflatedBytes);
        if (head) {
          head.push(chunk);
          headBytes += chunk.length;
          if (headBytes >= nextCheck) {
            if (headerChecked()) head = null;
            else if (headBytes - meta.length >= limits.maxHeaderBytes) {
              throw rejectFile('over_budget', fileName, `its inflated data set has no pixel data within its first ${Math.round(limits.maxHeaderBytes / 1024 ** 2)} MiB.`);
            } else nextCheck = Math.min(nextCheck * 2, meta.length + limits.maxHeaderBytes);
          }
        }
        done(null, chunk);
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      // A short file: its header is checked as a whole (a header that is incomplete even then is
      // refused by the reader of the inflated file, which names what is missing).
      try {
        if (head) headerChecked();
        done();
      } catch (error) {
        done(error as Error);
      }
    },
  });
}

async function readMeta(filePath: string, fileName: string): Promise<{ meta: Buffer; dataStart: number }> {
  const handle = await fs.promises.open(filePath, 'r');
  try {
    const { size } = await handle.stat();
    const window = Buffer.alloc(Math.min(size, META_WINDOW));
    const { bytesRead } = await handle.read(window, 0, window.length, 0);
    const rewritten = rewriteMeta(window.subarray(0, bytesRead), fileName);
    if (rewritten.dataStart >= META_WINDOW) throw rejectFile('not_dicom', fileName, 'its DICOM meta header is larger than 1 MiB.');
    return rewritten;
  } finally {
    await handle.close();
  }
}

/**
 * Inflates the deflated file at `filePath` into `targetPath` (which it creates), streaming: refuses
 * with over_budget once the inflated data set passes `limits.maxInflatedBytes` or its header has no
 * pixel data within `limits.maxHeaderBytes`, with whatever `limits.checkHeader` throws for the
 * header, and with decode_failed when the deflate stream is damaged.
 */
export async function inflateDeflatedFile(filePath: string, targetPath: string, limits: InflateLimits, fileName: string): Promise<void> {
  const { meta, dataStart } = await readMeta(filePath, fileName);
  const target = fs.createWriteStream(targetPath);
  target.write(meta);
  try {
    await pipeline(fs.createReadStream(filePath, { start: dataStart, highWaterMark: 16 * 1024 }), zlib.createInflateRaw(), budgetGate(meta, limits, fileName), target);
  } catch (error) {
    if (error instanceof ImportRejection) throw error;
    throw rejectFile('decode_failed', fileName, `its deflated data set cannot be inflated (${error instanceof Error ? error.message : String(error)}).`);
  }
}
