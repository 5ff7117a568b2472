import path from 'node:path';
import type { Config } from '../config.ts';
import type { BlobStore } from './blob-store.ts';
import { LocalDirectoryStore } from './local-directory-store.ts';
import { S3Store } from './s3-store.ts';

/** The store the configuration names: a directory inside DATA_DIR, or an S3-compatible bucket. */
export function openBlobStore(config: Config): BlobStore {
  return config.storage.kind === 's3' ? new S3Store(config.storage) : new LocalDirectoryStore(path.join(config.dataDir, 'files'));
}
