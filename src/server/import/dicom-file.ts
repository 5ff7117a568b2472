/**
 * Reads and checks one uploaded DICOM file without loading it: the header region is parsed with
 * dicom-parser (growing the read window until the pixel data element is reached), then the pixel
 * data is located by offset. For encapsulated syntaxes the fragment items are walked with small
 * reads and every frame's start is checked (JPEG frame size, RLE segment count). Anything that
 * makes the file unusable is an ImportRejection naming the file.
 */
import fs from 'node:fs';
import dicomParser, { type DataSet, type Element } from 'dicom-parser';
import { PATIENT_ID_PATTERN } from '../../domain/records.ts';
import { rejectFile } from './errors.ts';
import { rleSegmentCount } from './frame-decode.ts';
import { ACCEPTED_PHOTOMETRICS, nativeFrameBytes, type FrameLocation, type Photometric, type PixelEncoding, type PixelFormat } from './pixel-format.ts';

export const ACCEPTED_TRANSFER_SYNTAXES: Record<string, { name: string; encoding: PixelEncoding }> = {
  '1.2.840.10008.1.2': { name: 'implicit VR little endian', encoding: 'native' },
  '1.2.840.10008.1.2.1': { name: 'explicit VR little endian', encoding: 'native' },
  '1.2.840.10008.1.2.5': { name: 'RLE lossless', encoding: 'rle' },
  '1.2.840.10008.1.2.4.50': { name: 'JPEG baseline', encoding: 'jpeg' },
};

const OTHER_TRANSFER_SYNTAXES: Record<string, string> = {
  '1.2.840.10008.1.2.2': 'explicit VR big endian',
  '1.2.840.10008.1.2.1.99': 'deflated explicit VR little endian',
  '1.2.840.10008.1.2.4.51': 'JPEG extended (12-bit)',
  '1.2.840.10008.1.2.4.57': 'JPEG lossless',
  '1.2.840.10008.1.2.4.70': 'JPEG lossless, first-order prediction',
  '1.2.840.10008.1.2.4.80': 'JPEG-LS lossless',
  '1.2.840.10008.1.2.4.81': 'JPEG-LS near-lossless',
  '1.2.840.10008.1.2.4.90': 'JPEG 2000 lossless',
  '1.2.840.10008.1.2.4.91': 'JPEG 2000',
  '1.2.840.10008.1.2.4.100': 'MPEG-2',
  '1.2.840.10008.1.2.4.101': 'MPEG-2 high level',
  '1.2.840.10008.1.2.4.102': 'MPEG-4 AVC/H.264',
  '1.2.840.10008.1.2.4.103': 'MPEG-4 AVC/H.264 BD',
  '1.2.840.10008.1.2.4.104': 'MPEG-4 AVC/H.264 2D',
  '1.2.840.10008.1.2.4.105': 'MPEG-4 AVC/H.264 3D',
  '1.2.840.10008.1.2.4.106': 'MPEG-4 AVC/H.264 stereo',
  '1.2.840.10008.1.2.4.107': 'HEVC/H.265',
  '1.2.840.10008.1.2.4.108': 'HEVC/H.265 main 10',
  '1.2.840.10008.1.2.4.201': 'HTJ2K lossless',
  '1.2.840.10008.1.2.4.202': 'HTJ2K lossless RPCL',
  '1.2.840.10008.1.2.4.203': 'HTJ2K',
};

export type DicomSeriesKind = 'bmode' | 'angio';

const SOP_CLASSES: Record<string, { kind: DicomSeriesKind; name: string }> = {
  '1.2.840.10008.5.1.4.1.1.3.1': { kind: 'bmode', name: 'Ultrasound Multi-frame Image' },
  '1.2.840.10008.5.1.4.1.1.3': { kind: 'bmode', name: 'Ultrasound Multi-frame Image (retired)' },
  '1.2.840.10008.5.1.4.1.1.12.1': { kind: 'angio', name: 'X-Ray Angiographic Image' },
  '1.2.840.10008.5.1.4.1.1.12.1.1': { kind: 'angio', name: 'Enhanced X-Ray Angiographic Image' },
};

const PIXEL_DATA = 'x7fe00010';
const FIRST_WINDOW = 256 * 1024;
const MAX_HEADER_BYTES = 256 * 1024 * 1024;
const MAX_FRAMES = 200_000;
const MAX_SIZE_PX = 8192;
/** Bytes read at the start of each JPEG frame to find its frame header. */
const JPEG_PROBE = 4096;
/** Bytes kept from the start of every fragment: an RLE header, a JPEG start-of-image marker. */
const FRAGMENT_PROBE = 64;

export interface DicomPatient {
  readonly id: string;
  readonly name: string;
  readonly birthDate: string | null;
  readonly sex: 'F' | 'M' | 'O' | 'U';
}

export interface DicomFile {
  readonly fileName: string;
  readonly filePath: string;
  readonly fileSize: number;
  readonly kind: DicomSeriesKind;
  readonly sopClassUid: string;
  readonly modality: string;
  readonly transferSyntaxUid: string;
  readonly studyInstanceUid: string;
  readonly seriesInstanceUid: string;
  readonly patient: DicomPatient;
  readonly acquiredAt: Date | null;
  readonly frameCount: number;
  readonly format: PixelFormat;
  /** Where each frame's bytes are in the file. */
  readonly frames: readonly FrameLocation[];
  readonly frameRateHz: number | null;
  readonly pixelSpacingMm: number | null;
  readonly pixelSpacingSource: 'ultrasound-regions' | 'pixel-spacing' | 'imager-pixel-spacing' | null;
  readonly pullbackSpeedMmPerS: number | null;
}

function errorText(error: unknown): string {
  const inner = typeof error === 'object' && error !== null && 'exception' in error ? (error as { exception: unknown }).exception : error;
  return inner instanceof Error ? inner.message : String(inner);
}

const RAN_OUT = /past end|overread|overrun|cannot be greater than|buffer/i;

function readExactly(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const read = fs.readSync(fd, buffer, done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done === length ? buffer : buffer.subarray(0, done);
}

/** The header region parsed up to (and including) the pixel data element's own header. */
function parseHeader(fd: number, fileSize: number, fileName: string): { dataSet: DataSet; transferSyntaxUid: string } {
  if (fileSize < 132) throw rejectFile('not_dicom', fileName, 'the file is too short to be a DICOM file.');
  for (let window = Math.min(fileSize, FIRST_WINDOW); ; window = Math.min(fileSize, window * 2)) {
    const whole = window === fileSize;
    const bytes = readExactly(fd, 0, window);
    if (bytes.length < window) throw rejectFile('truncated', fileName, 'the file could not be read to its end.');
    if (bytes.toString('latin1', 128, 132) !== 'DICM') {
      throw rejectFile('not_dicom', fileName, 'the file is not a DICOM file (no "DICM" marker after the 128-byte preamble).');
    }
    let meta: DataSet;
    try {
      meta = dicomParser.readPart10Header(bytes);
    } catch (error) {
      if (!whole) continue;
      throw rejectFile('truncated', fileName, `the file ends inside its DICOM meta header (${errorText(error)}).`);
    }
    const transferSyntaxUid = (meta.string('x00020010') ?? '').replace(/\0/g, '').trim();
    if (!ACCEPTED_TRANSFER_SYNTAXES[transferSyntaxUid]) {
      const name = OTHER_TRANSFER_SYNTAXES[transferSyntaxUid];
      throw rejectFile(
        'unsupported_transfer_syntax',
        fileName,
        `its transfer syntax ${name ? `${name} (${transferSyntaxUid})` : transferSyntaxUid || '(none given)'} is not supported; ` +
          'accepted: implicit or explicit VR little endian, RLE lossless, JPEG baseline 8-bit.',
      );
    }
    let dataSet: DataSet;
    try {
      dataSet = dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
    } catch (error) {
      const text = errorText(error);
      if (!whole) {
        if (window >= MAX_HEADER_BYTES) throw rejectFile('unsupported_object', fileName, 'its header is larger than 256 MiB.');
        continue;
      }
      if (RAN_OUT.test(text)) throw rejectFile('truncated', fileName, `the file ends inside its DICOM header (${text}).`);
      throw rejectFile('not_dicom', fileName, `its DICOM header cannot be read (${text}).`);
    }
    if (!dataSet.elements[PIXEL_DATA] && !whole) {
      if (window >= MAX_HEADER_BYTES) throw rejectFile('unsupported_object', fileName, 'no pixel data within its first 256 MiB.');
      continue;
    }
    if (!dataSet.elements[PIXEL_DATA]) {
      const overrun = Object.values(dataSet.elements).some((e) => e.length !== 0xffffffff && e.dataOffset + e.length > fileSize);
      if (overrun) throw rejectFile('truncated', fileName, 'the file ends inside its DICOM header.');
    }
    return { dataSet, transferSyntaxUid };
  }
}

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

function textDecoderOf(dataSet: DataSet): TextDecoder {
  const values = (dataSet.string('x00080005') ?? '').split('\\').map((v) => v.trim());
  for (const value of values) {
    const label = CHARSETS[value] ?? CHARSETS[value.replace('ISO 2022 IR', 'ISO_IR')];
    if (label) return new TextDecoder(label);
  }
  return new TextDecoder('latin1');
}

function textOf(dataSet: DataSet, tag: string, decoder: TextDecoder): string {
  const element = dataSet.elements[tag];
  if (!element || element.length === 0 || element.length === 0xffffffff) return '';
  const bytes = dataSet.byteArray.subarray(element.dataOffset, element.dataOffset + element.length);
  return decoder.decode(bytes).replace(/[\0\s]+$/, '').trim();
}

function str(dataSet: DataSet, tag: string): string {
  return (dataSet.string(tag) ?? '').replace(/\0/g, '').trim();
}

function positive(value: number | undefined): number | null {
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

function isoDate(value: string): string | null {
  const m = /^(\d{4})\.?(\d{2})\.?(\d{2})$/.exec(value.trim());
  if (!m) return null;
  const date = new Date(`${m[1]}-${m[2]}-${m[3]}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? null : `${m[1]}-${m[2]}-${m[3]}`;
}

/** A DICOM DA + TM pair (or a DT) as an instant; times without an offset are taken as UTC. */
function dateTime(date: string, time: string, offset = ''): Date | null {
  const day = isoDate(date.slice(0, 8));
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

function acquisitionTime(dataSet: DataSet): Date | null {
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

function frameRate(dataSet: DataSet): number | null {
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

/** Ultrasound regions' physical delta X (in cm) as mm per pixel, else Pixel Spacing, else Imager Pixel Spacing. */
function pixelSpacing(dataSet: DataSet): { mm: number; source: DicomFile['pixelSpacingSource'] } | null {
  const regions = dataSet.elements.x00186011?.items ?? [];
  const candidates = regions
    .map((item) => item.dataSet)
    .filter((region): region is DataSet => region !== undefined)
    .filter((region) => region.uint16('x00186024') === 3 && positive(region.double('x0018602c')) !== null);
  // Prefer a 2D tissue region (spatial format 1) when a file has several.
  const region = candidates.find((r) => r.uint16('x00186012') === 1) ?? candidates[0];
  if (region) return { mm: region.double('x0018602c')! * 10, source: 'ultrasound-regions' };
  const spacing = positive(dataSet.floatString('x00280030', 1)) ?? positive(dataSet.floatString('x00280030', 0));
  if (spacing) return { mm: spacing, source: 'pixel-spacing' };
  const imager = positive(dataSet.floatString('x00181164', 1)) ?? positive(dataSet.floatString('x00181164', 0));
  if (imager) return { mm: imager, source: 'imager-pixel-spacing' };
  return null;
}

function pixelFormat(dataSet: DataSet, encoding: PixelEncoding, fileName: string): PixelFormat {
  const rows = dataSet.uint16('x00280010') ?? 0;
  const columns = dataSet.uint16('x00280011') ?? 0;
  if (rows < 1 || columns < 1) throw rejectFile('unsupported_object', fileName, 'it gives no frame size (Rows and Columns).');
  if (rows > MAX_SIZE_PX || columns > MAX_SIZE_PX) {
    throw rejectFile('unsupported_object', fileName, `its frames (${columns}x${rows}) are larger than ${MAX_SIZE_PX}x${MAX_SIZE_PX}.`);
  }
  const samplesPerPixel = dataSet.uint16('x00280002') ?? 1;
  const bitsAllocated = dataSet.uint16('x00280100') ?? 8;
  const bitsStored = dataSet.uint16('x00280101') ?? bitsAllocated;
  const photometric = str(dataSet, 'x00280004').toUpperCase() || (samplesPerPixel === 3 ? 'RGB' : 'MONOCHROME2');
  if (!(ACCEPTED_PHOTOMETRICS as readonly string[]).includes(photometric)) {
    throw rejectFile('unsupported_object', fileName, `its photometric interpretation ${photometric} is not supported (grayscale, RGB or YBR only).`);
  }
  if (samplesPerPixel !== 1 && samplesPerPixel !== 3) {
    throw rejectFile('unsupported_object', fileName, `it has ${samplesPerPixel} samples per pixel (1 or 3 are supported).`);
  }
  if ((samplesPerPixel === 1) !== photometric.startsWith('MONOCHROME')) {
    throw rejectFile('unsupported_object', fileName, `${samplesPerPixel} samples per pixel do not fit its photometric interpretation ${photometric}.`);
  }
  if (bitsAllocated !== 8 && !(bitsAllocated === 16 && samplesPerPixel === 1 && encoding !== 'jpeg')) {
    throw rejectFile(
      'unsupported_object',
      fileName,
      encoding === 'jpeg'
        ? `its JPEG frames have ${bitsAllocated} bits per sample (JPEG baseline is 8-bit).`
        : `it has ${bitsAllocated} bits per sample (8, or 16 for grayscale, are supported).`,
    );
  }
  if (bitsStored < 1 || bitsStored > bitsAllocated) throw rejectFile('unsupported_object', fileName, `its Bits Stored (${bitsStored}) is not valid.`);
  const center = dataSet.floatString('x00281050', 0);
  const width = dataSet.floatString('x00281051', 0);
  return {
    encoding,
    rows,
    columns,
    samplesPerPixel,
    bitsAllocated,
    bitsStored: bitsAllocated === 8 ? 8 : bitsStored,
    pixelRepresentation: dataSet.uint16('x00280103') === 1 ? 1 : 0,
    photometric: photometric as Photometric,
    planarConfiguration: dataSet.uint16('x00280006') === 1 ? 1 : 0,
    rescaleSlope: dataSet.floatString('x00281053') ?? 1,
    rescaleIntercept: dataSet.floatString('x00281052') ?? 0,
    window: center !== undefined && width !== undefined && width > 0 ? { center, width } : null,
  };
}

/** The frame header (SOFn) at the start of a JPEG frame, when it lies within `probe`. */
export function jpegFrameHeader(probe: Uint8Array): { marker: number; precision: number; height: number; width: number; components: number } | 'not-jpeg' | null {
  if (probe[0] !== 0xff || probe[1] !== 0xd8) return 'not-jpeg';
  let p = 2;
  while (p + 4 <= probe.length) {
    if (probe[p] !== 0xff) return null;
    const marker = probe[p + 1]!;
    if (marker === 0xff) {
      p += 1;
      continue;
    }
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      if (p + 10 > probe.length) return null;
      return {
        marker,
        precision: probe[p + 4]!,
        height: (probe[p + 5]! << 8) | probe[p + 6]!,
        width: (probe[p + 7]! << 8) | probe[p + 8]!,
        components: probe[p + 9]!,
      };
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      p += 2;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return null;
    p += 2 + ((probe[p + 2]! << 8) | probe[p + 3]!);
  }
  return null;
}

type Fragment = { offset: number; length: number; relative: number; probe: Buffer };

/** Walks the items of encapsulated pixel data: the basic offset table, then each fragment. */
function walkFragments(fd: number, fileSize: number, start: number, probeBytes: number, fileName: string): { offsetTable: number[]; fragments: Fragment[] } {
  const truncated = () => rejectFile('truncated', fileName, 'the file ends inside its pixel data.');
  const itemAt = (position: number, extra: number) => {
    if (position + 8 > fileSize) throw truncated();
    const bytes = readExactly(fd, position, Math.min(8 + extra, fileSize - position));
    return { group: bytes.readUInt16LE(0), element: bytes.readUInt16LE(2), length: bytes.readUInt32LE(4), bytes };
  };
  const table = itemAt(start, 0);
  if (table.group !== 0xfffe || table.element !== 0xe000) {
    throw rejectFile('decode_failed', fileName, 'its encapsulated pixel data does not start with an offset table item.');
  }
  if (start + 8 + table.length > fileSize) throw truncated();
  const tableBytes = table.length > 0 ? readExactly(fd, start + 8, table.length) : Buffer.alloc(0);
  const offsetTable: number[] = [];
  for (let k = 0; k + 4 <= tableBytes.length; k += 4) offsetTable.push(tableBytes.readUInt32LE(k));
  const first = start + 8 + table.length;
  const fragments: Fragment[] = [];
  for (let position = first; ; ) {
    const item = itemAt(position, probeBytes);
    if (item.group === 0xfffe && item.element === 0xe0dd) break;
    if (item.group !== 0xfffe || item.element !== 0xe000 || item.length === 0xffffffff) {
      throw rejectFile('decode_failed', fileName, `its encapsulated pixel data is damaged at byte ${position}.`);
    }
    if (position + 8 + item.length > fileSize) throw truncated();
    fragments.push({ offset: position + 8, length: item.length, relative: position - first, probe: Buffer.from(item.bytes.subarray(8, 8 + Math.min(item.length, probeBytes))) });
    position += 8 + item.length;
  }
  return { offsetTable, fragments };
}

/** Groups fragments into frames: by the offset table, one per frame, all in one, or (JPEG) by start-of-image markers. */
function framesFromFragments(offsetTable: number[], fragments: Fragment[], frameCount: number, encoding: PixelEncoding, fileName: string): Fragment[][] {
  if (offsetTable.length === frameCount && offsetTable[0] === 0) {
    const starts = new Map(fragments.map((f, index) => [f.relative, index]));
    const indices = offsetTable.map((offset) => starts.get(offset));
    if (indices.every((index, k) => index !== undefined && (k === 0 || index > indices[k - 1]!))) {
      return indices.map((index, k) => fragments.slice(index!, k + 1 < indices.length ? indices[k + 1]! : fragments.length));
    }
  }
  if (fragments.length === frameCount) return fragments.map((f) => [f]);
  if (frameCount === 1) return [fragments];
  if (encoding === 'jpeg') {
    const frames: Fragment[][] = [];
    for (const fragment of fragments) {
      if (fragment.probe[0] === 0xff && fragment.probe[1] === 0xd8) frames.push([fragment]);
      else frames[frames.length - 1]?.push(fragment);
    }
    if (frames.length === frameCount) return frames;
  }
  throw rejectFile('inconsistent_frames', fileName, `the header announces ${frameCount} frames but the pixel data holds ${fragments.length} fragments that do not make ${frameCount} frames.`);
}

function checkEncapsulatedFrame(fd: number, format: PixelFormat, frame: Fragment[], index: number, fileName: string): void {
  const start = frame[0];
  if (!start || start.length === 0) throw rejectFile('zero_frames', fileName, `frame ${index + 1} is empty.`);
  const probe = format.encoding === 'jpeg' && start.length > start.probe.length ? readExactly(fd, start.offset, Math.min(start.length, JPEG_PROBE)) : start.probe;
  if (format.encoding === 'rle') {
    if (probe.length < 64) throw rejectFile('decode_failed', fileName, `frame ${index + 1} is shorter than an RLE header.`);
    const segments = probe.readUInt32LE(0);
    if (segments !== rleSegmentCount(format)) {
      throw rejectFile('inconsistent_frames', fileName, `frame ${index + 1} has ${segments} RLE segments where the header implies ${rleSegmentCount(format)}.`);
    }
    return;
  }
  const header = jpegFrameHeader(probe);
  if (header === 'not-jpeg') throw rejectFile('decode_failed', fileName, `frame ${index + 1} is not a JPEG image.`);
  if (header === null) return; // its frame header lies further in: the decoder checks it
  if (header.marker > 0xc2 || header.precision !== 8) {
    throw rejectFile('unsupported_transfer_syntax', fileName, `frame ${index + 1} is not an 8-bit baseline JPEG image.`);
  }
  if (header.height !== 0 && (header.width !== format.columns || header.height !== format.rows)) {
    throw rejectFile(
      'inconsistent_frames',
      fileName,
      `frame ${index + 1} is ${header.width}x${header.height} where the header says ${format.columns}x${format.rows}.`,
    );
  }
  // A grayscale file whose JPEG frames carry YCbCr keeps their luma; the other way round cannot work.
  if (header.components !== format.samplesPerPixel && !(format.samplesPerPixel === 1 && header.components === 3)) {
    throw rejectFile('inconsistent_frames', fileName, `frame ${index + 1} has ${header.components} colour components where the header says ${format.samplesPerPixel}.`);
  }
}

function locateFrames(fd: number, fileSize: number, pixelData: Element, format: PixelFormat, frameCount: number, fileName: string): FrameLocation[] {
  if (format.encoding === 'native') {
    if (pixelData.hadUndefinedLength || pixelData.length === 0xffffffff) {
      throw rejectFile('decode_failed', fileName, 'its pixel data is encapsulated although its transfer syntax is uncompressed.');
    }
    const frameBytes = nativeFrameBytes(format);
    const expected = frameBytes * frameCount;
    if (pixelData.length === 0) throw rejectFile('zero_frames', fileName, 'its pixel data is empty.');
    if (pixelData.dataOffset + Math.min(pixelData.length, expected) > fileSize) {
      const present = Math.max(0, fileSize - pixelData.dataOffset);
      throw rejectFile('truncated', fileName, `the file ends inside its pixel data (${present} of ${pixelData.length} bytes present).`);
    }
    // One padding byte keeps an odd length even.
    if (pixelData.length !== expected && pixelData.length !== expected + 1) {
      throw rejectFile(
        'inconsistent_frames',
        fileName,
        `its pixel data holds ${pixelData.length} bytes where ${frameCount} frames of ${format.columns}x${format.rows}` +
          ` (${frameBytes} bytes each) need ${expected}.`,
      );
    }
    return Array.from({ length: frameCount }, (_, k) => [[pixelData.dataOffset + k * frameBytes, frameBytes]] as const);
  }
  if (!pixelData.hadUndefinedLength && pixelData.length !== 0xffffffff) {
    throw rejectFile('decode_failed', fileName, 'its pixel data is not encapsulated although its transfer syntax is compressed.');
  }
  const { offsetTable, fragments } = walkFragments(fd, fileSize, pixelData.dataOffset, FRAGMENT_PROBE, fileName);
  if (fragments.length === 0) throw rejectFile('zero_frames', fileName, 'its pixel data holds no frames.');
  const frames = framesFromFragments(offsetTable, fragments, frameCount, format.encoding, fileName);
  frames.forEach((frame, index) => checkEncapsulatedFrame(fd, format, frame, index, fileName));
  return frames.map((frame) => frame.map((f) => [f.offset, f.length] as const));
}

/** Reads and checks one uploaded file (see the module comment). */
export function readDicomFile(filePath: string, fileName: string): DicomFile {
  const fd = fs.openSync(filePath, 'r');
  try {
    const fileSize = fs.fstatSync(fd).size;
    const { dataSet, transferSyntaxUid } = parseHeader(fd, fileSize, fileName);
    const decoder = textDecoderOf(dataSet);
    const sopClassUid = str(dataSet, 'x00080016') || str(dataSet, 'x00020002');
    const modality = str(dataSet, 'x00080060').toUpperCase();
    const sopClass = SOP_CLASSES[sopClassUid];
    if (!sopClass || (sopClass.kind === 'bmode' && modality !== 'IVUS' && modality !== 'US')) {
      throw rejectFile(
        'unsupported_object',
        fileName,
        `it is ${sopClass ? `an ${sopClass.name} of modality ${modality || '(none)'}` : `a DICOM object of class ${sopClassUid || '(none)'}`}` +
          ', not an IVUS/ultrasound multi-frame image nor an X-ray angiography run.',
      );
    }
    const frameCountText = str(dataSet, 'x00280008');
    const frameCount = frameCountText === '' ? 1 : Number(frameCountText);
    if (!Number.isInteger(frameCount) || frameCount < 0) throw rejectFile('inconsistent_frames', fileName, `its Number of Frames (${frameCountText}) is not a number.`);
    if (frameCount === 0) throw rejectFile('zero_frames', fileName, 'its Number of Frames is 0.');
    if (frameCount > MAX_FRAMES) throw rejectFile('unsupported_object', fileName, `it has ${frameCount} frames (at most ${MAX_FRAMES} are accepted).`);
    const pixelData = dataSet.elements[PIXEL_DATA];
    if (!pixelData) throw rejectFile('zero_frames', fileName, 'it holds no pixel data.');
    const format = pixelFormat(dataSet, ACCEPTED_TRANSFER_SYNTAXES[transferSyntaxUid]!.encoding, fileName);
    const frames = locateFrames(fd, fileSize, pixelData, format, frameCount, fileName);

    const patientId = textOf(dataSet, 'x00100020', decoder);
    if (!PATIENT_ID_PATTERN.test(patientId)) {
      throw rejectFile(
        'invalid_patient_id',
        fileName,
        patientId
          ? `its Patient ID "${patientId}" cannot be used (letters, digits, '.', '_' and '-', up to 64 characters).`
          : 'it has no Patient ID.',
      );
    }
    const studyInstanceUid = str(dataSet, 'x0020000d');
    const seriesInstanceUid = str(dataSet, 'x0020000e');
    if (!studyInstanceUid || !seriesInstanceUid) {
      throw rejectFile('unsupported_object', fileName, 'it has no Study or Series Instance UID.');
    }
    const sex = str(dataSet, 'x00100040').toUpperCase();
    const spacing = pixelSpacing(dataSet);
    return {
      fileName,
      filePath,
      fileSize,
      kind: sopClass.kind,
      sopClassUid,
      modality,
      transferSyntaxUid,
      studyInstanceUid,
      seriesInstanceUid,
      patient: {
        id: patientId,
        name: personName(textOf(dataSet, 'x00100010', decoder)) || patientId,
        birthDate: isoDate(str(dataSet, 'x00100030')),
        sex: sex === 'F' || sex === 'M' || sex === 'O' ? sex : 'U',
      },
      acquiredAt: acquisitionTime(dataSet),
      frameCount,
      format,
      frames,
      frameRateHz: frameRate(dataSet),
      pixelSpacingMm: spacing?.mm ?? null,
      pixelSpacingSource: spacing?.source ?? null,
      pullbackSpeedMmPerS: positive(dataSet.floatString('x00183101')),
    };
  } finally {
    fs.closeSync(fd);
  }
}
