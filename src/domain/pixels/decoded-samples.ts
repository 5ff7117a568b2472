/**
 * What a codec adapter gives back for one frame: its samples as the library decoded them, before
 * any photometric or VOI conversion (pixel-conversion.ts does that).
 */

/** Samples of one frame, one array element per sample; 16-bit samples hold the stored bit pattern. */
export type SampleArray = Uint8Array | Uint8ClampedArray | Int8Array | Uint16Array | Int16Array;

export interface DecodedSamples {
  readonly width: number;
  readonly height: number;
  readonly components: number;
  /** Bits per sample of the coded data (8, 12, 16...). */
  readonly bitsPerSample: number;
  /** Pixel-interleaved (R G B R G B) or one plane per component. */
  readonly planar: boolean;
  /** The library turned YCbCr into RGB (libjpeg-turbo does, for 3-component JPEG). */
  readonly rgb: boolean;
  /** May be a view into a codec's memory: valid until the next decode of that codec. */
  readonly data: SampleArray;
}

export interface CodecAdapter {
  /** The library, for messages and the bench. */
  readonly library: string;
  /** Loads the library (WASM from node_modules) once per thread; decode() needs it done. */
  init(): Promise<void>;
  decode(frame: Uint8Array): DecodedSamples;
}

/** A 16-bit view of a codec's output bytes, copied when they are not 2-byte aligned. */
export function sixteenBit(bytes: Uint8Array, signed: boolean): Uint16Array | Int16Array {
  const aligned = bytes.byteOffset % 2 === 0 ? bytes : bytes.slice();
  const Kind = signed ? Int16Array : Uint16Array;
  return new Kind(aligned.buffer as ArrayBuffer, aligned.byteOffset, aligned.byteLength >> 1);
}
