/**
 * Reads and checks one uploaded DICOM file without loading it: the header region is parsed with
 * dicom-parser (growing the read window until the pixel data element is reached), then the pixel
 * data is located by offset. For encapsulated syntaxes the fragment items are walked with small
 * reads and every frame's start is checked (JPEG frame size, RLE segment count). Anything that
 * makes the file unusable is an ImportRejection naming the file.
 */
import fs from 'node:fs';
import dicomParser, { type DataSet } from 'dicom-parser';
import { PATIENT_ID_PATTERN } from '../../domain/records.ts';
import { rejectFile } from './errors.ts';
import { ACCEPTED_PHOTOMETRICS, type FrameLocation, type Photometric, type PixelEncoding, type PixelFormat } from './pixel-format.ts';
import { locateFrames, readExactly } from './pixel-data-location.ts';

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
