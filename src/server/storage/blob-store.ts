/**
 * Where frames, previews and uploads are kept: keys like `demo/{recordId}/v1/bmode/0003.gz`.
 * The frame logic talks only to this interface; which store backs it is configuration.
 */
export interface BlobStore {
  /** The bytes under `key`, or null when there are none. */
  get(key: string): Promise<Buffer | null>;
  /** Stores atomically: a reader sees the old bytes, the new bytes or nothing, never a part. */
  put(key: string, data: Uint8Array): Promise<void>;
  /** Removes every key that starts with `prefix`. */
  deletePrefix(prefix: string): Promise<void>;
  /** Stores a file's bytes under `key`, streamed from disk (a whole DICOM file is never held in memory). */
  putFile(key: string, filePath: string): Promise<void>;
  /** Writes the bytes under `key` to `filePath` (written beside, then renamed), streamed; false when there are none. */
  getFile(key: string, filePath: string): Promise<boolean>;
}

const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(\/[A-Za-z0-9][A-Za-z0-9._-]*)*$/;

/** Keys are built by the server from validated ids; this guards against any path trickery all the same. */
export function assertSafeKey(key: string): void {
  if (!KEY_PATTERN.test(key) || key.includes('..')) throw new Error(`unsafe storage key: ${key}`);
}
