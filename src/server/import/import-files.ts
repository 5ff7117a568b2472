/** Small file helpers of the import service: the age of an upload left behind, and a series' preview. */
import fs from 'node:fs/promises';
import path from 'node:path';
import { downsampleByHalf } from '../../domain/downsample.ts';
import { encodeGrayPng } from '../imaging/png.ts';
import type { DicomFile } from '../dicom/dicom-file.ts';

/** When anything in a directory (or the file itself) was last written, in ms since the epoch. */
export async function lastWritten(entry: string): Promise<number> {
  const stat = await fs.stat(entry).catch(() => null);
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  const names = await fs.readdir(entry).catch(() => [] as string[]);
  const times = await Promise.all(names.map((name) => fs.stat(path.join(entry, name)).then((s) => s.mtimeMs, () => 0)));
  return Math.max(stat.mtimeMs, ...times);
}

export function previewPng(frame: Uint8Array, file: DicomFile): Buffer {
  const { rows, columns } = file.format;
  if (rows < 2 || columns < 2) return encodeGrayPng(columns, rows, frame);
  const small = downsampleByHalf(frame, columns, rows);
  return encodeGrayPng(small.width, small.height, small.pixels);
}
