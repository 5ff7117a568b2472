/**
 * How the frames of an accepted DICOM file are stored, as read from its header: enough for a
 * decoder (on the main thread or in a worker) to turn one frame's bytes into 8-bit grayscale.
 * Plain data only: it is posted to worker threads as it is.
 */

/**
 * How a frame's bytes are encoded: uncompressed, RLE, or the codec family that decodes them
 * (src/server/dicom/codecs/registry.ts maps each to its adapter).
 */
export const PIXEL_ENCODINGS = ['native', 'rle', 'jpeg', 'jpeg-lossless', 'jpeg-ls', 'jpeg2000', 'htj2k'] as const;
export type PixelEncoding = (typeof PIXEL_ENCODINGS)[number];

export const ACCEPTED_PHOTOMETRICS = [
  'MONOCHROME1',
  'MONOCHROME2',
  'PALETTE COLOR',
  'RGB',
  'YBR_FULL',
  'YBR_FULL_422',
  'YBR_PARTIAL_422',
  'YBR_RCT',
  'YBR_ICT',
] as const;
export type Photometric = (typeof ACCEPTED_PHOTOMETRICS)[number];

/** A VOI LUT (0028,3010) item: output = data[modality value - first], of `bits` bits. */
export interface VoiLut {
  readonly first: number;
  readonly bits: number;
  readonly data: readonly number[];
}

/** PALETTE COLOR tables reduced to what an import keeps: the luma of each entry. */
export interface PaletteGray {
  /** Stored value of the first entry; values below map to it, values past the end to the last. */
  readonly first: number;
  readonly gray: readonly number[];
}

export interface PixelFormat {
  readonly encoding: PixelEncoding;
  readonly rows: number;
  readonly columns: number;
  readonly samplesPerPixel: 1 | 3;
  readonly bitsAllocated: 8 | 16;
  readonly bitsStored: number;
  /** 0 unsigned, 1 two's complement. */
  readonly pixelRepresentation: 0 | 1;
  readonly photometric: Photometric;
  /** 0: samples interleaved per pixel; 1: one plane per sample (native colour only). */
  readonly planarConfiguration: 0 | 1;
  /**
   * Native pixel data of explicit VR big endian whose 16-bit words are big endian: 16-bit
   * samples, and 8-bit samples an OW element holds (OB bytes are never swapped); decode-range.ts
   * puts the latter back in order as it reads them.
   */
  readonly bigEndianWords: boolean;
  /** Modality LUT as a line; only used for data wider than 8 bits. */
  readonly rescaleSlope: number;
  readonly rescaleIntercept: number;
  /** The first VOI window of the file, only used for data wider than 8 bits. */
  readonly window: { readonly center: number; readonly width: number } | null;
  /** The first VOI LUT, used for data wider than 8 bits when there is no window. */
  readonly voiLut: VoiLut | null;
  /** Only for PALETTE COLOR. */
  readonly palette: PaletteGray | null;
}

/** Where one frame's bytes are in the file: one or more [offset, length] ranges, read in order and joined. */
export type FrameLocation = ReadonlyArray<readonly [number, number]>;

/** Bytes of one uncompressed frame in the file. */
export function nativeFrameBytes(format: Pick<PixelFormat, 'rows' | 'columns' | 'samplesPerPixel' | 'bitsAllocated' | 'photometric'>): number {
  const pixels = format.rows * format.columns;
  // YBR_FULL_422 keeps two luma samples and one chroma pair per two pixels.
  if (format.samplesPerPixel === 3 && (format.photometric === 'YBR_FULL_422' || format.photometric === 'YBR_PARTIAL_422')) {
    return pixels * 2 * (format.bitsAllocated / 8);
  }
  return pixels * format.samplesPerPixel * (format.bitsAllocated / 8);
}

/** Luma of an RGB pixel (ITU-R BT.601 weights), rounded: the grayscale every colour frame is stored as. */
export function rgbToGray(r: number, g: number, b: number): number {
  return ((299 * r + 587 * g + 114 * b + 500) / 1000) | 0;
}

/** Plain 8-bit MONOCHROME2 frames of an encoding: what an IVUS console's gray frames are, and a gray frame pack's format (its decode is the gray itself). */
export function grayFormat(encoding: PixelEncoding, rows: number, columns: number): PixelFormat {
  return {
    encoding,
    rows,
    columns,
    samplesPerPixel: 1,
    bitsAllocated: 8,
    bitsStored: 8,
    pixelRepresentation: 0,
    photometric: 'MONOCHROME2',
    planarConfiguration: 0,
    bigEndianWords: false,
    rescaleSlope: 1,
    rescaleIntercept: 0,
    window: null,
    voiLut: null,
    palette: null,
  };
}
