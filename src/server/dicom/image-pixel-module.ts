/**
 * The Image Pixel module of a header (frame size, samples, bits, photometric interpretation,
 * planar configuration, palette, modality and VOI LUTs) as the PixelFormat a frame decoder needs;
 * refuses what cannot be decoded, naming the file.
 */
import dicomParser, { type DataSet } from 'dicom-parser';
import { rejectFile } from '../../domain/import-rejection.ts';
import { ACCEPTED_PHOTOMETRICS, rgbToGray, type PaletteGray, type Photometric, type PixelEncoding, type PixelFormat, type VoiLut } from '../../domain/pixels/pixel-format.ts';
import { str } from './attributes.ts';

const MAX_SIZE_PX = 8192;

/** A LUT descriptor (count, first mapped value, bits): a count of 0 means 65536 entries. */
function lutDescriptor(dataSet: DataSet, tag: string, signedFirst: boolean): { count: number; first: number; bits: number } | null {
  const element = dataSet.elements[tag];
  if (!element || element.length < 6) return null;
  const first = signedFirst || element.vr === 'SS' ? dataSet.int16(tag, 1)! : dataSet.uint16(tag, 1)!;
  return { count: dataSet.uint16(tag, 0)! || 65536, first, bits: dataSet.uint16(tag, 2)! };
}

/** LUT data of `count` entries: 16-bit words, or one byte per entry when that is all it holds. */
function lutData(dataSet: DataSet, tag: string, count: number): number[] | null {
  const element = dataSet.elements[tag];
  if (!element) return null;
  if (element.length === count || element.length === count + 1) {
    return Array.from(dataSet.byteArray.subarray(element.dataOffset, element.dataOffset + count));
  }
  if (element.length < 2 * count) return null;
  return Array.from({ length: count }, (_, k) => dataSet.uint16(tag, k)!);
}

/** PALETTE COLOR: the red, green and blue tables (0028,1101-1103 and 1201-1203) as the luma of each entry. */
function paletteGray(dataSet: DataSet, signed: boolean, fileName: string): PaletteGray {
  const channels = (['1', '2', '3'] as const).map((k) => {
    const descriptor = lutDescriptor(dataSet, `x0028110${k}`, signed);
    const data = descriptor && lutData(dataSet, `x0028120${k}`, descriptor.count);
    if (!descriptor || !data) {
      throw rejectFile('unsupported_object', fileName, 'its PALETTE COLOR lookup tables are missing or segmented (not supported).');
    }
    // 8-bit entries written in 16-bit words may sit in the high byte.
    const shift = descriptor.bits > 8 || data.some((v) => v > 255) ? 8 : 0;
    return { first: descriptor.first, values: data.map((v) => (shift ? Math.round(v / 257) : v)) };
  });
  const [red, green, blue] = channels as [(typeof channels)[0], (typeof channels)[0], (typeof channels)[0]];
  const count = Math.min(red.values.length, green.values.length, blue.values.length);
  return { first: red.first, gray: Array.from({ length: count }, (_, k) => rgbToGray(red.values[k]!, green.values[k]!, blue.values[k]!)) };
}

/** The first item of the VOI LUT Sequence (0028,3010), when it is usable. */
function firstVoiLut(dataSet: DataSet, signed: boolean): VoiLut | null {
  const item = dataSet.elements['x00283010']?.items?.[0]?.dataSet;
  if (!item) return null;
  const descriptor = lutDescriptor(item, 'x00283002', signed);
  const data = descriptor && lutData(item, 'x00283006', descriptor.count);
  if (!descriptor || !data || data.length === 0) return null;
  return { first: descriptor.first, bits: descriptor.bits >= 8 && descriptor.bits <= 16 ? descriptor.bits : 16, data };
}

export function pixelFormat(dataSet: DataSet, encoding: PixelEncoding, fileName: string): PixelFormat {
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
    throw rejectFile('unsupported_object', fileName, `its photometric interpretation ${photometric} is not supported (grayscale, palette, RGB or YBR only).`);
  }
  if (samplesPerPixel !== 1 && samplesPerPixel !== 3) {
    throw rejectFile('unsupported_object', fileName, `it has ${samplesPerPixel} samples per pixel (1 or 3 are supported).`);
  }
  if ((samplesPerPixel === 1) !== (photometric.startsWith('MONOCHROME') || photometric === 'PALETTE COLOR')) {
    throw rejectFile('unsupported_object', fileName, `${samplesPerPixel} samples per pixel do not fit its photometric interpretation ${photometric}.`);
  }
  if (bitsAllocated !== 8 && bitsAllocated !== 16) {
    throw rejectFile('unsupported_object', fileName, `it has ${bitsAllocated} bits allocated per sample (8 or 16 are supported).`);
  }
  if (bitsStored < 1 || bitsStored > bitsAllocated) throw rejectFile('unsupported_object', fileName, `its Bits Stored (${bitsStored}) is not valid.`);
  const signed = dataSet.uint16('x00280103') === 1;
  const center = dataSet.floatString('x00281050', 0);
  const width = dataSet.floatString('x00281051', 0);
  const bigEndian = dataSet.byteArrayParser === dicomParser.bigEndianByteArrayParser;
  return {
    encoding,
    rows,
    columns,
    samplesPerPixel,
    bitsAllocated,
    bitsStored: bitsAllocated === 8 ? 8 : bitsStored,
    pixelRepresentation: signed ? 1 : 0,
    photometric: photometric as Photometric,
    planarConfiguration: dataSet.uint16('x00280006') === 1 ? 1 : 0,
    // Big endian OB pixel data is a byte stream as in little endian; OW is a run of big endian words.
    bigEndianWords: bigEndian && encoding === 'native' && (bitsAllocated === 16 || dataSet.elements['x7fe00010']?.vr === 'OW'),
    rescaleSlope: dataSet.floatString('x00281053') ?? 1,
    rescaleIntercept: dataSet.floatString('x00281052') ?? 0,
    window: center !== undefined && width !== undefined && width > 0 ? { center, width } : null,
    voiLut: firstVoiLut(dataSet, signed),
    palette: photometric === 'PALETTE COLOR' ? paletteGray(dataSet, signed, fileName) : null,
  };
}
