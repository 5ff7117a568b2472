/**
 * Small DICOM files for the import tests and the import bench, written with dcmjs: IVUS / US
 * multi-frame and XA runs, in explicit or implicit VR little endian, RLE lossless (encoded here) or
 * JPEG baseline (frames encoded with jpeg-js), grayscale or colour, plus the ways a file goes bad.
 * Each fixture comes with the 8-bit gray frames an import must produce from it.
 */
// @ts-expect-error -- dcmjs ships no type declarations; the few calls used are typed below.
import dcmjsUntyped from 'dcmjs';
import jpeg from 'jpeg-js';
import { clamp, expectedLuma, expectedWideGray, rleFrame, smoothPixel, smoothWidePixel } from './fixture-pixels.ts';

// The pixel helpers live in fixture-pixels.ts; the tests import them from here as before.
export { expectedLuma, expectedWideGray, packBits, rleFrame, smoothPixel, smoothWidePixel } from './fixture-pixels.ts';

type DcmjsData = {
  DicomDict: new (meta: Record<string, unknown>) => { dict: Record<string, unknown>; write(options?: Record<string, unknown>): ArrayBuffer };
  DicomMetaDictionary: { denaturalizeDataset(dataset: Record<string, unknown>): Record<string, unknown> };
};
const { DicomDict, DicomMetaDictionary } = (dcmjsUntyped as { data: DcmjsData }).data;

export const SYNTAX_UIDS = {
  implicit: '1.2.840.10008.1.2',
  explicit: '1.2.840.10008.1.2.1',
  rle: '1.2.840.10008.1.2.5',
  jpeg: '1.2.840.10008.1.2.4.50',
} as const;
export type FixtureSyntax = keyof typeof SYNTAX_UIDS;

const SOP_CLASS = { ivus: '1.2.840.10008.5.1.4.1.1.3.1', us: '1.2.840.10008.5.1.4.1.1.3.1', xa: '1.2.840.10008.5.1.4.1.1.12.1' } as const;

export interface FixtureOptions {
  syntax?: FixtureSyntax;
  kind?: 'ivus' | 'us' | 'xa';
  rows?: number;
  columns?: number;
  frames?: number;
  /** Photometric interpretation of the stored frames. */
  color?: 'gray' | 'rgb' | 'ybr';
  /** Planar configuration of native colour frames. */
  planar?: 0 | 1;
  patientId?: string;
  patientName?: string;
  birthDate?: string;
  sex?: string;
  studyUid?: string;
  seriesUid?: string;
  /** Frame Time in ms (null leaves it out). */
  frameTimeMs?: number | null;
  /** Cine Rate in frames per second (written when given). */
  cineRate?: number;
  /** Ultrasound region physical delta X in cm (null leaves the regions out). */
  regionDeltaXcm?: number | null;
  /** Pixel Spacing row\column in mm (written when given). */
  pixelSpacing?: [number, number];
  /** IVUS Pullback Rate (0018,3101) in mm/s (null leaves it out). */
  pullbackRate?: number | null;
  /** Number of Frames as written in the header (defaults to the frame count). */
  numberOfFrames?: string | null;
  /** Transfer syntax UID written in the meta header (defaults to the syntax's). */
  transferSyntaxUid?: string;
  /** Leave the pixel data out. */
  noPixelData?: boolean;
  /** Drop the last frame's bytes from the pixel data (the header still counts it). */
  dropLastFrame?: boolean;
  jpegQuality?: number;
  /** Encapsulated frames: one fragment each (default), split into 20 KiB fragments, and whether the basic offset table is filled. */
  fragments?: 'one' | 'split';
  offsetTable?: boolean;
  studyDate?: string;
  studyTime?: string;
  /** Manufacturer (0008,0070), 'Test fixtures' by default; Manufacturer's Model Name and Body Part Examined are absent by default. */
  manufacturer?: string;
  model?: string;
  bodyPart?: string;
  /** Series Description (0008,103E); absent by default. */
  seriesDescription?: string;
  /** SOP Class UID and Modality written instead of the kind's. */
  sopClassUid?: string;
  modality?: string;
  /** Changes the stored bytes of frame `index` (RLE and JPEG frames) before they are written. */
  mutateFrame?: (index: number, bytes: Uint8Array) => Uint8Array;
  /** Only this many different frames, repeated (cheap large files for the bench). */
  distinctFrames?: number;
  /** Pixel value function (gray frames); defaults to a smooth moving pattern. */
  pixel?: (frame: number, x: number, y: number) => number;
  /** Gray frames of 12 or 16 bits stored (16 allocated), native or `encapsulated`; 8 by default. */
  bits?: 8 | 12 | 16;
  /** Stored value function of `bits`-bit frames; defaults to a smooth pattern over the whole range. */
  widePixel?: (frame: number, x: number, y: number) => number;
  /** Window Center/Width (first values), Rescale Slope/Intercept, VOI LUT Sequence (first item). */
  window?: { center: number; width: number };
  rescale?: { slope: number; intercept: number };
  voiLut?: { first: number; bits: number; data: number[] };
  /** Gray frames written as MONOCHROME1 (the import inverts them). */
  monochrome1?: boolean;
  /** Frames encoded by the caller (stored samples in, one frame's bytes out) under this transfer syntax. */
  encapsulated?: { transferSyntaxUid: string; encode: (samples: Uint8Array | Uint16Array, index: number) => Uint8Array };
}

export interface Fixture {
  bytes: Buffer;
  /** The 8-bit gray frames an import must produce (JPEG: before compression). */
  gray: Uint8Array[];
  rows: number;
  columns: number;
  frames: number;
  seriesUid: string;
  sopInstanceUid: string;
  studyUid: string;
  patientId: string;
  /** The stored samples of each frame (planes as written: gray, or R G B / Y Cb Cr interleaved unless planar). */
  stored: (Uint8Array | Uint16Array)[];
}

let uidCounter = 0;
/** A fresh DICOM UID (2.25 arc, decimal digits). */
export function newUid(): string {
  uidCounter += 1;
  return `2.25.${Date.now()}${process.pid}${uidCounter}${Math.floor(Math.random() * 1e6)}`;
}

/** A copy in an ArrayBuffer of its own (a Buffer may be a view into a shared pool). */
function toArrayBuffer(bytes: Uint8Array): ArrayBuffer {
  const copy = new Uint8Array(bytes.length);
  copy.set(bytes);
  return copy.buffer;
}

/** A DICOM file (see FixtureOptions) and the gray frames it should import as. */
export function makeDicom(options: FixtureOptions = {}): Fixture {
  const syntax = options.syntax ?? 'explicit';
  const kind = options.kind ?? 'ivus';
  const rows = options.rows ?? 48;
  const columns = options.columns ?? 64;
  const frames = options.frames ?? 20;
  const color = options.color ?? 'gray';
  const planar = options.planar ?? 0;
  const pixel = options.pixel ?? smoothPixel;
  const studyUid = options.studyUid ?? newUid();
  const seriesUid = options.seriesUid ?? newUid();
  const patientId = options.patientId ?? 'IMP-001';
  const n = rows * columns;

  const bits = options.bits ?? 8;
  const wide = bits > 8;
  const widePixel = options.widePixel ?? smoothWidePixel(bits);
  const wideFrames: Uint16Array[] = [];

  // Planes per frame (1 for gray, 3 for colour), and the gray an import must produce.
  const planes: Uint8Array[][] = [];
  const gray: Uint8Array[] = [];
  const distinct = Math.min(frames, options.distinctFrames ?? frames);
  for (let f = 0; f < frames; f++) {
    if (f >= distinct) {
      planes.push(planes[f % distinct]!);
      gray.push(gray[f % distinct]!);
      if (wide) wideFrames.push(wideFrames[f % distinct]!);
      continue;
    }
    const base = new Uint8Array(n);
    if (wide) {
      // Wide gray frames are kept as stored values; the gray is what the VOI makes of them.
      const values = new Uint16Array(n);
      for (let y = 0; y < rows; y++) for (let x = 0; x < columns; x++) values[y * columns + x] = widePixel(f, x, y);
      wideFrames.push(values);
      planes.push([base]);
      gray.push(new Uint8Array(values.map((v) => expectedWideGray(v, options))));
    } else if (color === 'gray') {
      planes.push([base]);
      for (let y = 0; y < rows; y++) for (let x = 0; x < columns; x++) base[y * columns + x] = pixel(f, x, y);
      gray.push(options.monochrome1 ? base.map((v) => 255 - v) : base);
    } else if (color === 'rgb') {
      for (let y = 0; y < rows; y++) for (let x = 0; x < columns; x++) base[y * columns + x] = pixel(f, x, y);
      const r = base;
      const g = base.map((v) => clamp(v * 0.8 + 30));
      const b = base.map((v) => 255 - v);
      planes.push([r, g, b]);
      gray.push(r.map((_, i) => expectedLuma(r[i]!, g[i]!, b[i]!)));
    } else {
      for (let y = 0; y < rows; y++) for (let x = 0; x < columns; x++) base[y * columns + x] = pixel(f, x, y);
      // YBR_FULL: the luma plane is the gray; chroma planes carry something else.
      const cb = base.map((_, i) => (i * 7) & 255);
      const cr = base.map((_, i) => (i * 13) & 255);
      planes.push([base, cb, cr]);
      gray.push(base);
    }
  }

  const samples = color === 'gray' ? 1 : 3;
  let pixelData: ArrayBuffer[] | undefined;
  const keptFrames = options.dropLastFrame ? frames - 1 : frames;
  // The stored samples of each frame, as a native file holds them.
  const stored: (Uint8Array | Uint16Array)[] = planes.map((p, f) => {
    if (wide) return wideFrames[f]!;
    if (samples === 1) return p[0]!;
    const frame = new Uint8Array(3 * n);
    if (planar === 1) p.forEach((plane, k) => frame.set(plane, k * n));
    else for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) frame[3 * i + k] = p[k]![i]!;
    return frame;
  });
  if (options.encapsulated) {
    const { encode } = options.encapsulated;
    pixelData = stored.slice(0, keptFrames).map((frame, f) => toArrayBuffer(encode(frame, f)));
  } else if (wide && (syntax === 'explicit' || syntax === 'implicit')) {
    pixelData = [toArrayBuffer(new Uint8Array(Buffer.concat(stored.slice(0, keptFrames).map((frame) => new Uint8Array(frame.buffer, frame.byteOffset, frame.byteLength)))))];
  } else if (syntax === 'explicit' || syntax === 'implicit') {
    const frameBytes = n * samples;
    const all = new Uint8Array(keptFrames * frameBytes);
    for (let f = 0; f < keptFrames; f++) {
      const p = planes[f]!;
      if (samples === 1) all.set(p[0]!, f * frameBytes);
      else if (planar === 1) p.forEach((plane, s) => all.set(plane, f * frameBytes + s * n));
      else for (let i = 0; i < n; i++) for (let s = 0; s < 3; s++) all[f * frameBytes + 3 * i + s] = p[s]![i]!;
    }
    pixelData = [toArrayBuffer(all)];
  } else if (syntax === 'rle') {
    const encoded = new Map<Uint8Array[], ArrayBuffer>();
    pixelData = planes.slice(0, keptFrames).map((p, f) => {
      if (options.mutateFrame) return toArrayBuffer(options.mutateFrame(f, rleFrame(p)));
      if (!encoded.has(p)) encoded.set(p, toArrayBuffer(rleFrame(p)));
      return encoded.get(p)!;
    });
  } else {
    const encoded = new Map<Uint8Array[], ArrayBuffer>();
    pixelData = planes.slice(0, keptFrames).map((p, f) => {
      const cached = options.mutateFrame ? undefined : encoded.get(p);
      if (cached) return cached;
      const rgba = new Uint8Array(n * 4);
      for (let i = 0; i < n; i++) {
        // jpeg-js takes RGBA and stores YCbCr: a gray frame goes in as R = G = B.
        rgba[4 * i] = p[0]![i]!;
        rgba[4 * i + 1] = (p[1] ?? p[0]!)[i]!;
        rgba[4 * i + 2] = (p[2] ?? p[0]!)[i]!;
        rgba[4 * i + 3] = 255;
      }
      const bytes = jpeg.encode({ width: columns, height: rows, data: rgba }, options.jpegQuality ?? 95).data;
      const frame = toArrayBuffer(options.mutateFrame ? options.mutateFrame(f, bytes) : bytes);
      encoded.set(p, frame);
      return frame;
    });
  }

  // jpeg-js stores colour as YCbCr, whatever went in.
  const photometric =
    color === 'gray' ? (options.monochrome1 ? 'MONOCHROME1' : 'MONOCHROME2') : color === 'rgb' && syntax !== 'jpeg' ? 'RGB' : 'YBR_FULL';
  const sopInstanceUid = newUid();
  const dataset: Record<string, unknown> = {
    SpecificCharacterSet: 'ISO_IR 192',
    SOPClassUID: options.sopClassUid ?? SOP_CLASS[kind],
    SOPInstanceUID: sopInstanceUid,
    StudyDate: options.studyDate ?? '20260312',
    StudyTime: options.studyTime ?? '101530',
    Modality: options.modality ?? (kind === 'ivus' ? 'IVUS' : kind === 'us' ? 'US' : 'XA'),
    Manufacturer: options.manufacturer ?? 'Test fixtures',
    ...(options.model === undefined ? {} : { ManufacturerModelName: options.model }),
    ...(options.bodyPart === undefined ? {} : { BodyPartExamined: options.bodyPart }),
    PatientName: options.patientName ?? 'Doe^Jane',
    PatientID: patientId,
    PatientBirthDate: options.birthDate ?? '19580214',
    PatientSex: options.sex ?? 'F',
    StudyInstanceUID: studyUid,
    SeriesInstanceUID: seriesUid,
    ...(options.seriesDescription === undefined ? {} : { SeriesDescription: options.seriesDescription }),
    SeriesNumber: '1',
    InstanceNumber: '1',
    SamplesPerPixel: samples,
    PhotometricInterpretation: photometric,
    Rows: rows,
    Columns: columns,
    BitsAllocated: wide ? 16 : 8,
    BitsStored: bits,
    HighBit: bits - 1,
    PixelRepresentation: 0,
  };
  if (options.window) Object.assign(dataset, { WindowCenter: String(options.window.center), WindowWidth: String(options.window.width) });
  if (options.rescale) Object.assign(dataset, { RescaleIntercept: String(options.rescale.intercept), RescaleSlope: String(options.rescale.slope), RescaleType: 'US' });
  if (options.voiLut) {
    const { first, bits: lutBits, data } = options.voiLut;
    dataset.VOILUTSequence = [{ LUTDescriptor: [data.length === 65536 ? 0 : data.length, first, lutBits], LUTData: data, _vrMap: { LUTDescriptor: 'US', LUTData: 'US' } }];
  }
  if (samples === 3) dataset.PlanarConfiguration = syntax === 'explicit' || syntax === 'implicit' ? planar : 0;
  if (options.numberOfFrames !== null) dataset.NumberOfFrames = options.numberOfFrames ?? String(frames);
  const frameTime = options.frameTimeMs === undefined ? 33.333 : options.frameTimeMs;
  if (frameTime !== null) dataset.FrameTime = String(frameTime);
  if (options.cineRate !== undefined) dataset.CineRate = String(options.cineRate);
  if (options.pixelSpacing) dataset.PixelSpacing = options.pixelSpacing.map(String);
  if (kind !== 'xa') {
    const delta = options.regionDeltaXcm === undefined ? 0.002 : options.regionDeltaXcm;
    if (delta !== null) {
      dataset.SequenceOfUltrasoundRegions = [
        {
          RegionSpatialFormat: 1,
          RegionDataType: 1,
          RegionFlags: 0,
          RegionLocationMinX0: 0,
          RegionLocationMinY0: 0,
          RegionLocationMaxX1: columns - 1,
          RegionLocationMaxY1: rows - 1,
          PhysicalUnitsXDirection: 3,
          PhysicalUnitsYDirection: 3,
          PhysicalDeltaX: delta,
          PhysicalDeltaY: delta,
        },
      ];
    }
    const pullback = options.pullbackRate === undefined ? 0.5 : options.pullbackRate;
    if (pullback !== null) dataset.IVUSPullbackRate = String(pullback);
  } else {
    dataset.ImagerPixelSpacing = ['0.3', '0.3'];
  }
  if (!options.noPixelData) {
    dataset.PixelData = pixelData;
    dataset._vrMap = { PixelData: wide && !options.encapsulated ? 'OW' : 'OB' };
  }

  const transferSyntaxUid = options.transferSyntaxUid ?? options.encapsulated?.transferSyntaxUid ?? SYNTAX_UIDS[syntax];
  const meta = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: options.sopClassUid ?? SOP_CLASS[kind],
    MediaStorageSOPInstanceUID: sopInstanceUid,
    TransferSyntaxUID: transferSyntaxUid,
    ImplementationClassUID: '2.25.1234567890',
  };
  const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  dict.dict = DicomMetaDictionary.denaturalizeDataset(dataset);
  const written = Buffer.from(dict.write({ fragmentMultiframe: options.fragments === 'split' }));
  const bytes = options.offsetTable === false ? withoutOffsetTable(written) : written;
  return { bytes, gray, rows, columns, frames, seriesUid, sopInstanceUid, studyUid, patientId, stored };
}

/** The same file with an empty basic offset table (readers must then find the frames themselves). */
function withoutOffsetTable(bytes: Buffer): Buffer {
  // (7FE0,0010) OB, undefined length, then the offset table item (FFFE,E000).
  const tag = Buffer.from([0xe0, 0x7f, 0x10, 0x00, 0x4f, 0x42, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0xff, 0x00, 0xe0]);
  const at = bytes.indexOf(tag);
  if (at < 0) throw new Error('no encapsulated pixel data');
  const lengthAt = at + tag.length;
  const length = bytes.readUInt32LE(lengthAt);
  const out = Buffer.concat([bytes.subarray(0, lengthAt), Buffer.alloc(4), bytes.subarray(lengthAt + 4 + length)]);
  return out;
}

/** A multipart/form-data body with one part per file (field `files` unless said otherwise). */
export function multipartBody(files: { name: string; bytes: Uint8Array; field?: string }[]): { body: Buffer; contentType: string } {
  const boundary = `----import-test-${Math.random().toString(16).slice(2)}`;
  const pieces: Buffer[] = [];
  for (const file of files) {
    pieces.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'files'}"; filename="${file.name}"\r\n` +
          'Content-Type: application/dicom\r\n\r\n',
      ),
      Buffer.from(file.bytes),
      Buffer.from('\r\n'),
    );
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(pieces), contentType: `multipart/form-data; boundary=${boundary}` };
}
