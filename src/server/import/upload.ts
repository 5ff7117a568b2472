/**
 * Streams the files of a multipart upload to a directory, one temporary file each, never holding
 * a file in memory; a file over the limit stops the upload (its bytes beyond the limit are never
 * written). The caller removes the directory when anything goes wrong.
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { IMPORT_FILE_FIELD } from '../../domain/imports.ts';
import { ImportRejection } from './errors.ts';
import type { UploadedFile } from './import-service.ts';

export const MAX_FILES_PER_IMPORT = 16;

export class UploadFormError extends Error {
  readonly statusCode: number;
  constructor(statusCode: number, message: string) {
    super(message);
    this.statusCode = statusCode;
  }
}

/** A file name fit to show back (the original name, without any path and control characters). */
export function displayName(name: string | undefined, index: number): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return clean || `file ${index + 1}`;
}

function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0).replace(/\.0$/, '')} ${units[unit]}`;
}

export async function receiveUpload(request: FastifyRequest, dir: string, maxFileBytes: number): Promise<UploadedFile[]> {
  if (!request.isMultipart()) {
    throw new UploadFormError(415, `Send the DICOM files as multipart/form-data, in parts named "${IMPORT_FILE_FIELD}".`);
  }
  await fs.mkdir(dir, { recursive: true });
  const files: UploadedFile[] = [];
  const parts = request.parts({ limits: { fileSize: maxFileBytes, files: MAX_FILES_PER_IMPORT, fields: 10, fieldSize: 1024, parts: MAX_FILES_PER_IMPORT + 10 } });
  try {
    for await (const part of parts) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== IMPORT_FILE_FIELD) {
        part.file.resume();
        throw new UploadFormError(400, `Unexpected file part "${part.fieldname}": send the DICOM files in parts named "${IMPORT_FILE_FIELD}".`);
      }
      const fileName = displayName(part.filename, files.length);
      const target = path.join(dir, `${String(files.length).padStart(3, '0')}.dcm`);
      const out = createWriteStream(target, { flags: 'wx' });
      await pipeline(part.file, out);
      if (part.file.truncated) {
        throw new ImportRejection('too_large', `${fileName}: the file is larger than the limit of ${formatBytes(maxFileBytes)} per file.`, fileName);
      }
      files.push({ fileName, path: target, size: out.bytesWritten });
    }
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new ImportRejection('too_large', `A file is larger than the limit of ${formatBytes(maxFileBytes)} per file.`);
    }
    if (code === 'FST_FILES_LIMIT') throw new ImportRejection('too_large', `Send at most ${MAX_FILES_PER_IMPORT} files at once.`);
    throw error;
  }
  if (files.length === 0) throw new UploadFormError(400, `No file was sent: send one or more DICOM files in parts named "${IMPORT_FILE_FIELD}".`);
  return files;
}
