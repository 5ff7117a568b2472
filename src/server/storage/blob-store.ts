/**
 * Where frames, previews and uploads are kept: keys like `demo/{recordId}/v1/bmode/0003.gz`.
 * The frame logic talks only to this interface; which store backs it is configuration.
 */
export interface BlobStore {
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /**
   * Stores atomically: a reader sees the old bytes, the new bytes or nothing, never a part. A store
   * that hands browsers signed URLs keeps `headers` with the object and answers them on GET.
   */
  put(key: string, data: Uint8Array, headers?: StoredObjectHeaders): Promise<void>;
  /** Removes every key that starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /** Stores a file's bytes under `key`, streamed from disk (a whole DICOM file is never held in memory). */
  putFile(key: string, filePath: string): Promise<void>;
  /** Writes the bytes under `key` to `filePath` (written beside, then renamed), streamed; false when there are none. */
  getFile(key: string, filePath: string): Promise<boolean>;
  /**
   * Only stores that browsers can reach themselves (S3): a GET URL for `key` that anyone holding it
   * may use until `expiresAt`, and nobody after. Absent: the app serves the bytes itself.
   */
  signedGetUrl?(key: string): Promise<SignedUrl>;
  /** With signedGetUrl: whether there are bytes under `key`, without reading them (a HEAD). */
  has?(key: string): Promise<boolean>;
}

/** The headers a browser must get with an object it fetches from the store itself. */
export type StoredObjectHeaders = { contentType: string; contentEncoding?: 'gzip'; cacheControl?: string };

export type SignedUrl = { url: string; expiresAt: Date };

/** Frames of one imaging version never change (a new version has new keys): any cache may keep them. */
export const IMMUTABLE_PUBLIC = 'public, max-age=31536000, immutable';

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys are built by the server from validated ids; this guards against any path trickery all the same. */
export function assertSafeKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
}
