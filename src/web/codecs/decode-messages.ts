/** What the page and its frame decode workers say to each other (frame-decode.worker.ts, decode-pool.ts). */
import type { PixelFormat } from '../../domain/pixels/pixel-format.ts';
import type { PackCacheEntry } from './pack-cache.ts';
import type { ChunkShape } from './pack-to-gray.ts';

export type DecodeRequest =
  /**
   * A pack's bytes follow, in 'part' messages as they arrive from the network, then 'end'; `keep`:
   * where the worker stores the whole pack for the next visit, once decoded (pack-cache.ts); `first`:
   * the frame of the pack the review shows now, sent on its own as soon as it is decoded ('frame').
   */
  | { readonly kind: 'open'; readonly id: number; readonly shape: ChunkShape; readonly keep?: PackCacheEntry; readonly first?: number }
  /** The pack's next bytes; their buffer is transferred to the worker, which decodes every frame they complete. */
  | { readonly kind: 'part'; readonly id: number; readonly bytes: Uint8Array }
  /** The pack's body is sent again from its start (a retried request). */
  | { readonly kind: 'restart'; readonly id: number }
  /** Every byte is in: the worker answers with the chunk's gray (or why there is none). */
  | { readonly kind: 'end'; readonly id: number }
  /** The page no longer wants the pack (its request failed): dropped without an answer. */
  | { readonly kind: 'cancel'; readonly id: number }
  /**
   * Load the codec a record's packs need before the first of them reaches this worker; `shared`:
   * the page compiles its WASM and sends it ('compiled'), the worker loads the rest meanwhile.
   */
  | { readonly kind: 'warm'; readonly format: Pick<PixelFormat, 'encoding' | 'bitsStored'>; readonly shared?: true }
  /** The codec's WASM the page compiled (null: it could not, the worker compiles its own). */
  | { readonly kind: 'compiled'; readonly format: Pick<PixelFormat, 'encoding' | 'bitsStored'>; readonly module: WebAssembly.Module | null };

/** The messages about one pack's bytes, handled in the order they were sent. */
export type PackRequest = Extract<DecodeRequest, { readonly id: number }>;

export type DecodeReply =
  /**
   * The pack's `first` frame, before the rest of its chunk: its own buffer, transferred. Its bytes
   * are in the chunk's gray too (the end's answer), so the chunk stays one buffer.
   */
  | { readonly id: number; readonly frame: number; readonly gray: Uint8Array }
  /** The chunk's gray bytes (their buffer transferred back) and the time its frames took to decode. */
  | { readonly id: number; readonly gray: Uint8Array; readonly decodeMs: number }
  | { readonly id: number; readonly error: string };
