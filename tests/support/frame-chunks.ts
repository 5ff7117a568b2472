/**
 * A frame route answer turned into its 8-bit gray frames, as the page does: a frame pack decoded
 * frame by frame with the pure decode and the same WASM codecs (domain/pixels/frame-decode.ts),
 * frames predicted from the one before made whole (domain/pixels/frame-prediction.ts), or a gzip
 * chunk of the gray (records made before frame packs) gunzipped.
 */
import zlib from 'node:zlib';
import { decodeFrameWith } from '../../src/domain/pixels/frame-decode.ts';
import { FRAME_PACK_MEDIA_TYPE, readFramePack } from '../../src/domain/pixels/frame-pack.ts';
import { addPreviousFrame } from '../../src/domain/pixels/frame-prediction.ts';
import { codecFor, initCodecFor } from '../../src/server/dicom/codecs/registry.ts';

/** Every frame of a frame pack, decoded to gray (rows x columns bytes each). */
export async function decodePack(pack: Uint8Array): Promise<Uint8Array[]> {
  const { format, frames, predict } = readFramePack(pack);
  await initCodecFor(format);
  const gray: Uint8Array[] = [];
  frames.forEach((frame, k) => {
    const out = new Uint8Array(format.rows * format.columns);
    decodeFrameWith(format, frame, out, codecFor);
    if (predict?.[k]) addPreviousFrame(out, gray[k - 1]!);
    gray.push(out);
  });
  return gray;
}

/** The frames of one frame route answer (pack or gzip chunk), each `frameBytes` long. */
export async function chunkFrames(response: { headers: Record<string, unknown>; rawPayload: Buffer }, frameBytes: number): Promise<Uint8Array[]> {
  if (response.headers['content-type'] === FRAME_PACK_MEDIA_TYPE) return decodePack(response.rawPayload);
  const raw = response.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(response.rawPayload) : response.rawPayload;
  const frames: Uint8Array[] = [];
  for (let at = 0; at < raw.length; at += frameBytes) frames.push(new Uint8Array(raw.subarray(at, at + frameBytes)));
  return frames;
}
