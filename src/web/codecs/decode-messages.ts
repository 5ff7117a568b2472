/** What the page and its frame decode workers say to each other (frame-decode.worker.ts, decode-pool.ts). */
import type { PixelFormat } from '../../domain/pixels/pixel-format.ts';
import type { ChunkShape } from './pack-to-gray.ts';

export type DecodeRequest =
  /** Decode a pack; its bytes' buffer is transferred to the worker. */
  | { readonly kind: 'decode'; readonly id: number; readonly pack: Uint8Array; readonly shape: ChunkShape }
  /** Load the codec a record's packs need before the first of them reaches this worker. */
  | { readonly kind: 'warm'; readonly format: Pick<PixelFormat, 'encoding' | 'bitsStored'> };

export type DecodeReply =
  /** The chunk's gray bytes (their buffer transferred back) and the time the frames took. */
  | { readonly id: number; readonly gray: Uint8Array; readonly decodeMs: number }
  | { readonly id: number; readonly error: string };
