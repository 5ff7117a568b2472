/** What the page and its frame decode workers say to each other (frame-decode.worker.ts, decode-pool.ts). */
import type { PixelFormat } from '../../domain/pixels/pixel-format.ts';
import type { ChunkShape } from './pack-to-gray.ts';

export type DecodeRequest =
  /** Decode a pack; its bytes' buffer is transferred to the worker. */
  | { readonly kind: 'decode'; readonly id: number; readonly pack: Uint8Array; readonly shape: ChunkShape }
  /**
   * Load the codec a record's packs need before the first of them reaches this worker; `shared`:
   * the page compiles its WASM and sends it ('compiled'), the worker loads the rest meanwhile.
   */
  | { readonly kind: 'warm'; readonly format: Pick<PixelFormat, 'encoding' | 'bitsStored'>; readonly shared?: true }
  /** The codec's WASM the page compiled (null: it could not, the worker compiles its own). */
  | { readonly kind: 'compiled'; readonly format: Pick<PixelFormat, 'encoding' | 'bitsStored'>; readonly module: WebAssembly.Module | null };

export type DecodeReply =
  /** The chunk's gray bytes (their buffer transferred back) and the time the frames took. */
  | { readonly id: number; readonly gray: Uint8Array; readonly decodeMs: number }
  | { readonly id: number; readonly error: string };
