import { LOCALE } from '../../../domain/constants.ts';

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'] as const;
const ONE_DECIMAL = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 1 });
const WHOLE = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 0 });

/** A file size a person can read: '812 bytes', '1.5 MiB', '2 GiB' (binary units, as the upload limit). */
export function formatBytes(bytes: number): string {
  if (bytes === 1) return '1 byte';
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? WHOLE.format(value) : ONE_DECIMAL.format(value)} ${UNITS[unit]}`;
}

export const COUNT_FORMAT = new Intl.NumberFormat(LOCALE);

const TIME_FORMAT = new Intl.DateTimeFormat(LOCALE, {
  month: '2-digit',
  day: '2-digit',
  year: '2-digit',
  hour: 'numeric',
  minute: '2-digit',
});

/** When an import started: '03/12/26, 10:15 AM' ('' for an unreadable value). */
export function formatStarted(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : TIME_FORMAT.format(date);
}

/**
 * How far each file of a multipart upload is, from the bytes of the whole body sent so far. The
 * files go in order; the body's extra bytes (part headers, boundaries) are shared out before each
 * file. Answers a fraction from 0 to 1 per file.
 */
export function fileFractions(sizes: readonly number[], loaded: number, total: number): number[] {
  if (sizes.length === 0) return [];
  const filesBytes = sizes.reduce((sum, size) => sum + size, 0);
  const overhead = Math.max(0, total - filesBytes) / sizes.length;
  let start = 0;
  return sizes.map((size) => {
    const dataStart = start + overhead;
    start = dataStart + size;
    if (loaded >= total) return 1;
    if (size === 0) return loaded >= dataStart ? 1 : 0;
    return Math.min(1, Math.max(0, (loaded - dataStart) / size));
  });
}

/**
 * The same file chosen twice (picked again, or dropped after being picked) is listed once; files
 * of the same name in different folders of a study (IM0001 in every series folder) are all kept.
 */
export function fileIdentity(file: File, path = file.name): string {
  return `${path}\u0000${file.size}\u0000${file.lastModified}`;
}
