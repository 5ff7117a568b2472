import type { BlobStore } from '../../src/server/storage/blob-store.ts';

/** A BlobStore in memory for the detection's tests (no files: contours never stream them), with the keys it holds. */
export function memoryStore(): BlobStore & { keys(): string[] } {
  const blobs = new Map<string, Buffer>();
  return {
    keys: () => [...blobs.keys()],
    get: async (key) => blobs.get(key) ?? null,
    put: async (key, data) => void blobs.set(key, Buffer.from(data)),
    deletePrefix: async (prefix) => {
      for (const key of [...blobs.keys()]) if (key.startsWith(prefix)) blobs.delete(key);
    },
    putFile: () => Promise.reject(new Error('not used by contours')),
    getFile: () => Promise.reject(new Error('not used by contours')),
  };
}
