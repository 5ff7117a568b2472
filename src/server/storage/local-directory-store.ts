import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, type BlobStore } from './blob-store.ts';

/** A BlobStore in a local directory (by default inside the data directory). */
export class LocalDirectoryStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = root;
  }

  private pathOf(key: string): string {
    assertSafeKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  }

  /** Headers are not kept: the app serves these files itself, with the headers it chooses. */
  async put(key: string, data: Uint8Array): Promise<void> {
    await writeAtomically(this.pathOf(key), (temporary) => fs.writeFile(temporary, data));
  }

  async deletePrefix(prefix: string): Promise<void> {
    await fs.rm(this.pathOf(prefix.replace(/\/+$/, '')), { recursive: true, force: true });
  }

  async putFile(key: string, filePath: string): Promise<void> {
    await writeAtomically(this.pathOf(key), (temporary) => fs.copyFile(filePath, temporary));
  }

  async getFile(key: string, filePath: string): Promise<boolean> {
    try {
      await writeAtomically(filePath, (temporary) => fs.copyFile(this.pathOf(key), temporary));
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
      throw error;
    }
  }
}

/** Writes beside the target, then renames: readers never see a half-written file, even after a crash. */
async function writeAtomically(target: string, write: (temporary: string) => Promise<void>): Promise<void> {
  await fs.mkdir(path.dirname(target), { recursive: true });
  const temporary = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  try {
    await write(temporary);
    await fs.rename(temporary, target);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}
