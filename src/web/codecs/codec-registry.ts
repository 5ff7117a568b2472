/**
 * Which library decodes the frames of each compressed encoding in the page: the same choice as
 * the server's registry (server/dicom/codecs/registry.ts), built on the same libraries, so a pack
 * decodes to the same gray the server would have made. Each library is loaded the first time a
 * pack of its encoding arrives (`loaders`: the page fetches the .wasm from our origin, the tests
 * read it from disk).
 */
import type { CodecAdapter, DecodedSamples } from '../../domain/pixels/decoded-samples.ts';
import type { CodecLookup } from '../../domain/pixels/frame-decode.ts';
import type { PixelEncoding, PixelFormat } from '../../domain/pixels/pixel-format.ts';
import { codecErrorText, emscriptenCodec, once, type EmscriptenModule } from '../../domain/pixels/emscripten-codec.ts';
import { jpeg12BitCodec, type JpegImage } from '../../domain/pixels/jpeg-12bit-codec.ts';

/** jpeg-lossless-decoder-js's decoder, as the server's adapter uses it. */
export interface LosslessDecoder {
  decode(buffer: ArrayBuffer, offset: number, length: number): Uint8Array | Uint16Array;
  xDim: number;
  yDim: number;
  numComp: number;
  precision?: number;
}

export interface CodecLoaders {
  readonly libjpegTurbo: () => Promise<EmscriptenModule>;
  readonly charls: () => Promise<EmscriptenModule>;
  readonly openjpeg: () => Promise<EmscriptenModule>;
  readonly openjph: () => Promise<EmscriptenModule>;
  readonly jpegLossless: () => Promise<new () => LosslessDecoder>;
  readonly jpeg12Bit: () => Promise<new () => JpegImage>;
}

type CodecEncoding = Exclude<PixelEncoding, 'native' | 'rle'>;

/** The codec libraries that are WASM (their .wasm: codec-wasm.ts). */
export type WasmLibrary = 'libjpegTurbo' | 'charls' | 'openjpeg' | 'openjph';

/** The WASM library that decodes a format's frames; null for RLE, uncompressed and the JavaScript decoders (JPEG lossless, 12-bit JPEG). */
export function wasmLibraryOf({ encoding, bitsStored }: Pick<PixelFormat, 'encoding' | 'bitsStored'>): WasmLibrary | null {
  if (encoding === 'jpeg') return bitsStored > 8 ? null : 'libjpegTurbo';
  if (encoding === 'jpeg-ls') return 'charls';
  if (encoding === 'jpeg2000') return 'openjpeg';
  if (encoding === 'htj2k') return 'openjph';
  return null;
}

export interface CodecRegistry {
  /** The loaded-or-not adapter for a format (null for native and RLE). */
  readonly codecFor: CodecLookup;
  /** Loads the library a format needs (a no-op once loaded, and for native and RLE). */
  init(format: Pick<PixelFormat, 'encoding' | 'bitsStored'>): Promise<void>;
}

function jpegLosslessCodec(load: () => Promise<new () => LosslessDecoder>): CodecAdapter {
  let Decoder: (new () => LosslessDecoder) | null = null;
  return {
    library: 'jpeg-lossless-decoder-js (@cornerstonejs fork)',
    init: once(async () => {
      Decoder = await load();
    }),
    decode(frame): DecodedSamples {
      if (!Decoder) throw new Error('the JPEG lossless decoder is not loaded (init() first)');
      // A new decoder per frame: one keeps the sample size of the first frame it decoded.
      const decoder = new Decoder();
      let data: Uint8Array | Uint16Array;
      try {
        data = decoder.decode(frame.buffer as ArrayBuffer, frame.byteOffset, frame.byteLength);
      } catch (error) {
        throw new Error(`the JPEG lossless frame cannot be decoded (${codecErrorText(error)})`, { cause: error });
      }
      return { width: decoder.xDim, height: decoder.yDim, components: decoder.numComp, bitsPerSample: decoder.precision ?? 8, planar: false, rgb: false, data };
    },
  };
}

export function createCodecRegistry(loaders: CodecLoaders): CodecRegistry {
  // JPEG extended (.51) holds 8 or 12-bit frames; libjpeg-turbo's build only takes the former.
  const jpeg12Bit = jpeg12BitCodec(loaders.jpeg12Bit);
  const codecs: Record<CodecEncoding, CodecAdapter> = {
    // Colour comes out as RGB whatever the JPEG stored (YCbCr for YBR_FULL_422).
    jpeg: emscriptenCodec({ library: 'libjpeg-turbo (@cornerstonejs/codec-libjpeg-turbo-8bit)', decoderClass: 'JPEGDecoder', outputsRgb: true }, loaders.libjpegTurbo),
    'jpeg-lossless': jpegLosslessCodec(loaders.jpegLossless),
    'jpeg-ls': emscriptenCodec({ library: 'CharLS (@cornerstonejs/codec-charls)', decoderClass: 'JpegLSDecoder', outputsRgb: false }, loaders.charls),
    jpeg2000: emscriptenCodec({ library: 'OpenJPEG (@cornerstonejs/codec-openjpeg)', decoderClass: 'J2KDecoder', outputsRgb: true }, loaders.openjpeg),
    htj2k: emscriptenCodec({ library: 'OpenJPH (@cornerstonejs/codec-openjph)', decoderClass: 'HTJ2KDecoder', outputsRgb: true }, loaders.openjph),
  };
  const codecFor: CodecLookup = (format) => {
    if (!(format.encoding in codecs)) return null;
    if (format.encoding === 'jpeg' && format.bitsStored > 8) return jpeg12Bit;
    return codecs[format.encoding as CodecEncoding];
  };
  return {
    codecFor,
    init: async (format) => {
      await codecFor(format)?.init();
    },
  };
}
