/**
 * Splits a multipart/related body (a WADO-RS retrieve) into files as it arrives: one part is never
 * held in memory, so a pullback of a gigabyte costs a few chunks of memory. dicomweb-client (like
 * the registry's multipart parsers) buffers whole responses and parts, so retrieves go through here.
 */
import fs from 'node:fs/promises';

export type SavedPart = { path: string; size: number; contentType: string | null };

export class MultipartError extends Error {}

export type MultipartLimits = {
  /** Bytes one part may have. */
  maxPartBytes: number;
  /** Parts the body may have. */
  maxParts: number;
};

type State = 'preamble' | 'after-delimiter' | 'headers' | 'content' | 'done';

const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary of a `multipart/...; boundary=...` content type, or null. */
export function multipartBoundary(contentType: string | null): string | null {
  if (!contentType || !/^multipart\//i.test(contentType.trim())) return null;
  const match = /;\s*boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  return match ? (match[1] ?? match[2] ?? null) : null;
}

/**
 * Writes each part of `body` to `pathOf(index)` and answers what was written. Throws a
 * MultipartError for a malformed body or one over the limits; the caller removes what was written.
 */
export async function saveMultipartParts(
  body: AsyncIterable<Uint8Array>,
  boundary: string,
  pathOf: (index: number) => string,
  limits: MultipartLimits,
): Promise<SavedPart[]> {
  // The body is read as if preceded by CRLF, so the first delimiter looks like every other one.
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  const saved: SavedPart[] = [];
  let buffer: Buffer = Buffer.from(CRLF);
  let state: State = 'preamble';
  // Changed inside `step`: read through this so TypeScript does not narrow it to its first value.
  const current = (): State => state;
  let file: fs.FileHandle | null = null;
  let part: SavedPart | null = null;

  const write = async (bytes: Buffer) => {
    if (bytes.length === 0) return;
    part!.size += bytes.length;
    if (part!.size > limits.maxPartBytes) throw new MultipartError(`a part is over ${limits.maxPartBytes} bytes`);
    await file!.write(bytes);
  };

  try {
    const step = async (final: boolean): Promise<boolean> => {
      if (state === 'preamble' || state === 'content') {
        const at = buffer.indexOf(delimiter);
        if (at < 0) {
          // Keep what could be the start of a delimiter split across chunks.
          const keep = final ? 0 : delimiter.length - 1;
          if (state === 'content') await write(buffer.subarray(0, Math.max(0, buffer.length - keep)));
          buffer = buffer.subarray(Math.max(0, buffer.length - keep));
          return false;
        }
        if (state === 'content') {
          await write(buffer.subarray(0, at));
          await file!.close();
          file = null;
        }
        buffer = buffer.subarray(at + delimiter.length);
        state = 'after-delimiter';
        return true;
      }
      if (state === 'after-delimiter') {
        if (buffer.length < 2) return false;
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) {
          state = 'done';
          return false;
        }
        // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
        const eol = buffer.indexOf(CRLF);
        if (eol < 0) return false;
        buffer = buffer.subarray(eol + 2);
        state = 'headers';
        return true;
      }
      if (state === 'headers') {
        // A part without headers starts with the blank line at once.
        const end = buffer.subarray(0, 2).equals(CRLF) ? -2 : buffer.indexOf(HEADER_END);
        if (end === -1) {
          if (buffer.length > MAX_HEADER_BYTES) throw new MultipartError('a part header is too long');
          return false;
        }
        const headerText = end < 0 ? '' : buffer.subarray(0, end).toString('latin1');
        buffer = buffer.subarray(end < 0 ? 2 : end + 4);
        if (saved.length >= limits.maxParts) throw new MultipartError(`more than ${limits.maxParts} parts`);
        const contentType = /^content-type:\s*(.+)$/im.exec(headerText)?.[1]?.trim() ?? null;
        part = { path: pathOf(saved.length), size: 0, contentType };
        saved.push(part);
        file = await fs.open(part.path, 'wx');
        state = 'content';
        return true;
      }
      return false;
    };

    for await (const chunk of body) {
      buffer = buffer.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffer, chunk]);
      while (await step(false));
      if (current() === 'done') break;
    }
    while (await step(true));
    if (current() !== 'done') throw new MultipartError('the body ended before its closing boundary');
    return saved;
  } finally {
    await (file as fs.FileHandle | null)?.close();
  }
}
