import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MultipartError, multipartBoundary, saveMultipartParts } from '../../../src/server/pacs/multipart-to-files.ts';

const BOUNDARY = 'b0undary-42';

/** A multipart/related body as a PACS sends one (a preamble is allowed; parts carry a content type). */
function body(parts: Buffer[], { closing = true, preamble = '' } = {}): Buffer {
  const pieces: Buffer[] = [Buffer.from(preamble)];
  for (const part of parts) pieces.push(Buffer.from(`--${BOUNDARY}\r\nContent-Type: application/dicom\r\n\r\n`), part, Buffer.from('\r\n'));
  if (closing) pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

async function* chunks(bytes: Buffer, size: number): AsyncIterable<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

describe('streaming a WADO-RS multipart answer to files', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-multipart-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const pathOf = (index: number) => path.join(dir, `part-${index}.dcm`);

  // Binary content holding what looks like the start of a delimiter, so a split across chunks is exercised.
  const first = Buffer.concat([Buffer.from('DICM'), Buffer.from(`\r\n--${BOUNDARY.slice(0, 5)}`), Buffer.alloc(3000, 7), Buffer.from('\r\n-')]);
  const second = Buffer.from(Array.from({ length: 5000 }, (_, i) => (i * 31) % 256));

  it.each([1, 7, 64, 100_000])('gives back every part byte for byte when the body arrives in chunks of %i bytes', async (size) => {
    const saved = await saveMultipartParts(chunks(body([first, second], { preamble: 'ignored preamble\r\n' }), size), BOUNDARY, pathOf, { maxPartBytes: 1e6, maxParts: 5 });
    expect(saved.map((p) => p.size)).toEqual([first.length, second.length]);
    expect(saved[0]!.contentType).toBe('application/dicom');
    expect(fs.readFileSync(saved[0]!.path).equals(first)).toBe(true);
    expect(fs.readFileSync(saved[1]!.path).equals(second)).toBe(true);
  });

  it('refuses a body cut before its closing boundary, a part over the limit and too many parts', async () => {
    await expect(saveMultipartParts(chunks(body([first], { closing: false }), 100), BOUNDARY, pathOf, { maxPartBytes: 1e6, maxParts: 5 })).rejects.toThrow(MultipartError);
    await expect(saveMultipartParts(chunks(body([second]), 100), BOUNDARY, (i) => pathOf(10 + i), { maxPartBytes: 4000, maxParts: 5 })).rejects.toThrow(/over 4000 bytes/);
    await expect(saveMultipartParts(chunks(body([first, second]), 100), BOUNDARY, (i) => pathOf(20 + i), { maxPartBytes: 1e6, maxParts: 1 })).rejects.toThrow(/more than 1 parts/);
  });

  it('reads the boundary of a content type, quoted or not', () => {
    expect(multipartBoundary('multipart/related; type="application/dicom"; boundary=abc-1')).toBe('abc-1');
    expect(multipartBoundary('multipart/related; boundary="a b"; type="application/dicom"')).toBe('a b');
    expect(multipartBoundary('application/dicom')).toBeNull();
  });
});
