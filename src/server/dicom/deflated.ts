/**
 * Deflated explicit VR little endian (1.2.840.10008.1.2.1.99): everything after the File Meta group
 * is raw-deflated. An upload in it is inflated once into a new explicit VR little endian file (the
 * same meta header, its Transfer Syntax UID and group length rewritten), so the header parser and
 * the frame decoders read it like any other file. The inflated size is capped by a byte budget: a
 * few kilobytes of deflate can expand to gigabytes.
 */
import fs from 'node:fs';
import zlib from 'node:zlib';
import { rejectFile } from '../import/errors.ts';
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

/**
 * Inflates the deflated file at `filePath` into `targetPath` (which it creates), refusing with
 * over_budget once the inflated data set passes `maxInflatedBytes`, and with decode_failed when the
 * deflate stream is damaged. Synchronous: it runs where the header is read (a header worker).
 */
export function inflateDeflatedFile(filePath: string, targetPath: string, maxInflatedBytes: number, fileName: string): void {
  const bytes = fs.readFileSync(filePath);
  const { meta, dataStart } = rewriteMeta(bytes, fileName);
  let inflated: Buffer;
  try {
    // One past the budget tells "exactly the budget" from "more than the budget".
    inflated = zlib.inflateRawSync(bytes.subarray(dataStart), { maxOutputLength: maxInflatedBytes + 1 });
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw rejectFile('over_budget', fileName, `its deflated data set inflates to more than ${maxInflatedBytes.toLocaleString('en-US')} bytes, this server's limit per file.`);
    }
    throw rejectFile('decode_failed', fileName, `its deflated data set cannot be inflated (${error instanceof Error ? error.message : String(error)}).`);
  }
  if (inflated.length > maxInflatedBytes) {
    throw rejectFile('over_budget', fileName, `its deflated data set inflates to more than ${maxInflatedBytes.toLocaleString('en-US')} bytes, this server's limit per file.`);
  }
  fs.writeFileSync(targetPath, meta);
  fs.appendFileSync(targetPath, inflated);
}
