/**
 * Attributes of a DICOM header read the way real files write them: character sets, person names,
 * dates and times (current and old dotted forms), frame rate, pixel spacing and pullback speed.
 */
import type { DataSet } from 'dicom-parser';

export type PixelSpacingSource = 'ultrasound-regions' | 'pixel-spacing' | 'imager-pixel-spacing';

const CHARSETS: Record<string, string> = {
  'ISO_IR 192': 'utf-8',
  'ISO_IR 100': 'latin1',
  'ISO_IR 101': 'iso-8859-2',
  'ISO_IR 109': 'iso-8859-3',
  'ISO_IR 110': 'iso-8859-4',
  'ISO_IR 144': 'iso-8859-5',
  'ISO_IR 127': 'iso-8859-6',
  'ISO_IR 126': 'iso-8859-7',
  'ISO_IR 138': 'iso-8859-8',
  'ISO_IR 148': 'iso-8859-9',
  'ISO_IR 166': 'windows-874',
  GB18030: 'gb18030',
  GBK: 'gbk',
};

export function textDecoderOf(dataSet: DataSet): TextDecoder {
  const values = (dataSet.string('x00080005') ?? '').split('\\').map((v) => v.trim());
  for (const value of values) {
    const label = CHARSETS[value] ?? CHARSETS[value.replace('ISO 2022 IR', 'ISO_IR')];
    if (label) return new TextDecoder(label);
  }
  return new TextDecoder('latin1');
}

export function textOf(dataSet: DataSet, tag: string, decoder: TextDecoder): string {
  const element = dataSet.elements[tag];
  if (!element || element.length === 0 || element.length === 0xffffffff) return '';
  const bytes = dataSet.byteArray.subarray(element.dataOffset, element.dataOffset + element.length);
  // NUL is no character of any DICOM text VR (only a trailing pad some writers use): dropped wherever
  // it is, as PostgreSQL cannot store it in text (issue 24). The decoder already turns bytes that are
  // not text in the declared character set into U+FFFD, never into half a surrogate pair.
  return decoder.decode(bytes).replace(/\0/g, '').trim();
}

/** LO is at most 64 characters; a longer value is cut there, as a reader of the standard would show it. */
const MAX_DESCRIPTION_LENGTH = 64;

/**
 * A Series Description fit to show on a record card: control characters (C0, DEL, C1) become
 * spaces, runs of spaces one, cut to LO's 64 characters; null when nothing readable is left.
 */
export function seriesDescriptionText(text: string): string | null {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is removed
  const cleaned = text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ').replace(/\s+/g, ' ').trim();
  return cleaned ? Array.from(cleaned).slice(0, MAX_DESCRIPTION_LENGTH).join('') : null;
}

export function str(dataSet: DataSet, tag: string): string {
  return (dataSet.string(tag) ?? '').replace(/\0/g, '').trim();
}

export function positive(value: number | undefined): number | null {
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : null;
}

/** "Family^Given^Middle^Prefix^Suffix" as "Family, Given Middle". */
export function personName(value: string): string {
  const alphabetic = value.split('=')[0] ?? '';
  const [family = '', given = '', middle = '', prefix = '', suffix = ''] = alphabetic.split('^').map((part) => part.trim());
  const first = [prefix, given, middle].filter(Boolean).join(' ');
  const last = [family, suffix].filter(Boolean).join(' ');
  return last && first ? `${last}, ${first}` : last || first;
}

/** A DA value as YYYY-MM-DD: the current form (19941105) and the old dotted one (1994.11.05); the first of several values. */
export function isoDate(value: string): string | null {
  const m = /^(\d{4})(\.?)(\d{2})\2(\d{2})$/.exec((value.split('\\')[0] ?? '').trim());
  if (!m) return null;
  const day = `${m[1]}-${m[3]}-${m[4]}`;
  const date = new Date(`${day}T00:00:00Z`);
  // Date rolls 1994-02-31 over to March: only a date that reads back the same is real.
  return Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== day ? null : day;
}

/** A DICOM DA + TM pair (or a DT) as an instant; times without an offset are taken as UTC. */
function dateTime(date: string, time: string, offset = ''): Date | null {
  const day = isoDate(date);
  if (!day) return null;
  const t = /^(\d{2})(\d{2})?(\d{2})?(\.\d{1,6})?/.exec(time.replace(/:/g, '').trim());
  const hh = t?.[1] ?? '00';
  const mm = t?.[2] ?? '00';
  const ss = t?.[3] ?? '00';
  const frac = (t?.[4] ?? '.0').slice(0, 4).padEnd(4, '0');
  const zone = /^([+-])(\d{2})(\d{2})$/.exec(offset.trim());
  const result = new Date(`${day}T${hh}:${mm}:${ss}${frac}${zone ? `${zone[1]}${zone[2]}:${zone[3]}` : 'Z'}`);
  return Number.isNaN(result.getTime()) ? null : result;
}

export function acquisitionTime(dataSet: DataSet): Date | null {
  const dt = str(dataSet, 'x0008002a');
  if (dt) {
    const m = /^(\d{8})(\d{0,6}(?:\.\d{1,6})?)([+-]\d{4})?$/.exec(dt);
    const parsed = m ? dateTime(m[1]!, m[2] ?? '', m[3] ?? str(dataSet, 'x00080201')) : null;
    if (parsed) return parsed;
  }
  const pairs: [string, string][] = [
    ['x00080022', 'x00080032'],
    ['x00080023', 'x00080033'],
    ['x00080021', 'x00080031'],
    ['x00080020', 'x00080030'],
  ];
  for (const [dateTag, timeTag] of pairs) {
    const date = str(dataSet, dateTag);
    if (date) {
      const parsed = dateTime(date, str(dataSet, timeTag), str(dataSet, 'x00080201'));
      if (parsed) return parsed;
    }
  }
  return null;
}

export function frameRate(dataSet: DataSet): number | null {
  const frameTime = positive(dataSet.floatString('x00181063'));
  if (frameTime) return 1000 / frameTime;
  const vector = dataSet.numStringValues('x00181065') ?? 0;
  if (vector > 1) {
    let sum = 0;
    for (let k = 1; k < vector; k++) sum += dataSet.floatString('x00181065', k) ?? 0;
    if (sum > 0) return (1000 * (vector - 1)) / sum;
  }
  return positive(dataSet.intString('x00180040')) ?? positive(dataSet.intString('x00082144')) ?? positive(dataSet.floatString('x00082144'));
}

/**
 * Ultrasound regions' physical delta X (in cm) as mm per pixel, else Pixel Spacing, else Imager
 * Pixel Spacing. Some vendors write a negative delta (the axis pointing left): its size is the spacing.
 */
export function pixelSpacing(dataSet: DataSet): { mm: number; source: PixelSpacingSource } | null {
  const regions = dataSet.elements.x00186011?.items ?? [];
  const candidates = regions
    .map((item) => item.dataSet)
    .filter((region): region is DataSet => region !== undefined)
    .filter((region) => region.uint16('x00186024') === 3 && positive(Math.abs(region.double('x0018602c') ?? 0)) !== null);
  // Prefer a 2D tissue region (spatial format 1) when a file has several.
  const region = candidates.find((r) => r.uint16('x00186012') === 1) ?? candidates[0];
  if (region) return { mm: Math.abs(region.double('x0018602c')!) * 10, source: 'ultrasound-regions' };
  const spacing = positive(dataSet.floatString('x00280030', 1)) ?? positive(dataSet.floatString('x00280030', 0));
  if (spacing) return { mm: spacing, source: 'pixel-spacing' };
  const imager = positive(dataSet.floatString('x00181164', 1)) ?? positive(dataSet.floatString('x00181164', 0));
  if (imager) return { mm: imager, source: 'imager-pixel-spacing' };
  return null;
}
