/**
 * Real encoders for codec tests and the bench: Debian's dcmtk and GDCM command-line tools
 * (transcoding a file written by makeDicom into another transfer syntax), OpenJPH's encoder from
 * @cornerstonejs/codec-openjph for HTJ2K (no command-line tool here writes it), and dcm2pnm's
 * rendering as an independent reference for palette colour.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { loadWasmModule } from '../../src/server/dicom/codecs/wasm-module.ts';

/** Whether a command-line tool runs here. */
export function hasTool(tool: string): boolean {
  return spawnSync(tool, ['--version'], { stdio: 'ignore' }).status === 0;
}

/** Runs `tool args... input output` and returns `output`. */
export function transcode(tool: string, args: readonly string[], input: string, output: string): string {
  execFileSync(tool, [...args, input, output], { stdio: ['ignore', 'ignore', 'pipe'] });
  return output;
}

/** Sets attributes with dcmodify (e.g. ['PhotometricInterpretation=YBR_RCT']) on a copy of `input`. */
export function modified(input: string, output: string, assignments: readonly string[]): string {
  fs.copyFileSync(input, output);
  execFileSync('dcmodify', ['-nb', ...assignments.flatMap((a) => ['-m', a]), output], { stdio: ['ignore', 'ignore', 'pipe'] });
  return output;
}

/** The frames of a colour file as dcm2pnm renders them (PPM), as interleaved RGB bytes. */
export function dcm2pnmRgbFrames(input: string, frames: number): Uint8Array[] {
  const base = path.join(path.dirname(input), `${path.basename(input, '.dcm')}-pnm`);
  execFileSync('dcm2pnm', ['+Fa', input, base], { stdio: ['ignore', 'ignore', 'pipe'] });
  return Array.from({ length: frames }, (_, f) => {
    const ppm = fs.readFileSync(`${base}.${f}.ppm`);
    // "P6\n<width> <height>\n255\n" then the samples.
    let at = 0;
    for (let lines = 0; lines < 3; at++) if (ppm[at] === 0x0a) lines++;
    return new Uint8Array(ppm.subarray(at));
  });
}

interface HtEncoder {
  getDecodedBuffer(info: Record<string, unknown>): Uint8Array;
  setQuality(lossless: boolean, quantizationStep: number): void;
  setProgressionOrder(order: number): void;
  encode(): void;
  getEncodedBuffer(): Uint8Array;
}

let encoderModule: Promise<{ HTJ2KEncoder: new () => HtEncoder }> | null = null;

/** OpenJPH's encoder, loaded once (its WASM also holds the decoder the import uses). */
export async function htj2kEncoder(): Promise<(samples: Uint8Array | Uint16Array, frame: { width: number; height: number; bits: number; components: number; lossless: boolean; rpcl?: boolean }) => Uint8Array> {
  encoderModule ??= loadWasmModule('@cornerstonejs/codec-openjph', 'wasmjs', 'wasm');
  const { HTJ2KEncoder } = await encoderModule;
  return (samples, frame) => {
    const encoder = new HTJ2KEncoder();
    const input = encoder.getDecodedBuffer({
      width: frame.width,
      height: frame.height,
      bitsPerSample: frame.bits,
      componentCount: frame.components,
      isSigned: false,
      isUsingColorTransform: false,
    });
    input.set(new Uint8Array(samples.buffer, samples.byteOffset, samples.byteLength));
    // A quantization step of 1/256 keeps the lossy error to a few levels.
    encoder.setQuality(frame.lossless, frame.lossless ? 0 : 1 / 256);
    // OpenJPH's progression orders: 0 LRCP, 1 RLCP, 2 RPCL (what .202 requires).
    if (frame.rpcl) encoder.setProgressionOrder(2);
    encoder.encode();
    return encoder.getEncodedBuffer().slice();
  };
}
