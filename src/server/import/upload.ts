/**
 * Streams the files of a multipart upload to a directory, one temporary file each, never holding
 * a file in memory, and collects its form fields (before or after the files, in any order). A file
 * over the per-file limit, or an upload over the total limit, stops the upload (bytes beyond the
 * limit are never written). The caller removes the directory when anything goes wrong.
 */
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { IMPORT_FILE_FIELD, IMPORT_FORM_FIELDS } from '../../domain/imports.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import { UploadFormError } from './errors.ts';

export type UploadedFile = { fileName: string; path: string; size: number };

/** Files one upload may carry: a whole study exported by a console or a DICOMDIR (hundreds of files, many series). */
export const MAX_FILES_PER_UPLOAD = 2000;
/** Bytes one upload may carry in all (never less than one file of the per-file limit): a study of several long pullbacks fits. */
export const MAX_UPLOAD_BYTES = 16 * 1024 ** 3;
const MAX_FIELDS = Object.keys(IMPORT_FORM_FIELDS).length;
const MAX_FIELD_BYTES = 1024;

/** A file name fit to show back (the original name, without any path and control characters). */
export function displayName(name: string | undefined, index: number): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f]/g, '').trim().slice(0, 200);
  return clean || `file ${index + 1}`;
}

export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(value < 10 ? 1 : 0).replace(/\.0$/, '')} ${units[unit]}`;
}

export type Upload = { files: UploadedFile[]; fields: Record<string, string> };

export async function receiveUpload(request: FastifyRequest, dir: string, maxFileBytes: number, maxUploadBytes = MAX_UPLOAD_BYTES): Promise<Upload> {
  if (!request.isMultipart()) {
    throw new UploadFormError(415, `Send the DICOM files as multipart/form-data, in parts named "${IMPORT_FILE_FIELD}".`);
  }
  await fs.mkdir(dir, { recursive: true });
  const totalLimit = Math.max(maxUploadBytes, maxFileBytes);
  const files: UploadedFile[] = [];
  const fields: Record<string, string> = {};
  let total = 0;
  const parts = request.parts({
    limits: { fileSize: maxFileBytes, files: MAX_FILES_PER_UPLOAD, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: MAX_FILES_PER_UPLOAD + MAX_FIELDS },
  });
  try {
    for await (const part of parts) {
      if (part.type === 'field') {
        if (!Object.hasOwn(IMPORT_FORM_FIELDS, part.fieldname)) {
          throw new UploadFormError(400, `Unexpected form field "${part.fieldname}": the fields are ${Object.keys(IMPORT_FORM_FIELDS).join(', ')}.`);
        }
        if (part.valueTruncated) throw new UploadFormError(400, `The form field "${part.fieldname}" is longer than ${MAX_FIELD_BYTES} bytes.`);
        if (Object.hasOwn(fields, part.fieldname)) throw new UploadFormError(400, `The form field "${part.fieldname}" is sent twice.`);
        fields[part.fieldname] = String(part.value);
        continue;
      }
      if (part.fieldname !== IMPORT_FILE_FIELD) {
        part.file.resume();
        throw new UploadFormError(400, `Unexpected file part "${part.fieldname}": send the DICOM files in parts named "${IMPORT_FILE_FIELD}".`);
      }
      const fileName = displayName(part.filename, files.length);
      const target = path.join(dir, `${String(files.length).padStart(4, '0')}.dcm`);
      const out = createWriteStream(target, { flags: 'wx' });
      await pipeline(
        part.file,
        async function* countTotal(source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            total += chunk.length;
            if (total > totalLimit) {
              throw new ImportRejection('too_large', `${fileName}: the upload is larger than the limit of ${formatBytes(totalLimit)} in all: send the files in parts.`, fileName);
            }
            yield chunk;
          }
        },
        out,
      );
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
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT') {
      throw new ImportRejection('too_large', `Send at most ${MAX_FILES_PER_UPLOAD.toLocaleString('en-US')} files at once.`);
    }
    if (code === 'FST_FIELDS_LIMIT') throw new UploadFormError(400, `Send at most ${MAX_FIELDS} form fields.`);
    throw error;
  }
  if (files.length === 0) throw new UploadFormError(400, `No file was sent: send one or more DICOM files in parts named "${IMPORT_FILE_FIELD}".`);
  return { files, fields };
}
