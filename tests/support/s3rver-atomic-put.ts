/**
 * S3 makes a PUT visible whole or not at all: a GET during a PUT of the same key answers the old
 * object or the new one, never part of either. s3rver 3.7.1 writes the object file in place
 * (lib/stores/filesystem.js putObject: `createWriteStream` truncates it, then streams the body in),
 * so two replicas storing the same demo chunk at once (both make it when the page's requests go
 * to both) let a browser's GET in between read a file that shrinks under it: s3rver then
 * answers fewer bytes than the Content-Length it sent, and the browser waits for the rest. That
 * is the test store failing where S3 does not, so its puts are made atomic here: the body is
 * written to a file of its own and renamed over the object, as S3's semantics require.
 */
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';

/** What of s3rver's FilesystemStore this patch uses (its API is untyped CommonJS). */
export type S3rverFilesystemStore = {
  getResourcePath(bucket: string, key: string, resource: string): string;
  putMetadata(bucket: string, key: string, metadata: Record<string, string>, md5: string): Promise<void>;
  putObject(object: { bucket: string; key: string; content: Buffer | Readable; metadata: Record<string, string> }): Promise<{ size: number; md5: string }>;
};

async function bytesOf(content: Buffer | Readable): Promise<Buffer> {
  if (Buffer.isBuffer(content)) return content;
  const parts: Buffer[] = [];
  for await (const part of content) parts.push(Buffer.isBuffer(part) ? part : Buffer.from(part as Uint8Array));
  return Buffer.concat(parts);
}

/** Replaces the store's putObject with one whose object appears whole, by rename, once all of it is on disk. */
export function makePutsAtomic(store: S3rverFilesystemStore): void {
  store.putObject = async (object) => {
    // A body cut short (the client went away) rejects here, before anything of it is visible.
    const content = await bytesOf(object.content);
    const objectPath = store.getResourcePath(object.bucket, object.key, 'object');
    await fs.promises.mkdir(path.dirname(objectPath), { recursive: true });
    // Not ending in s3rver's object suffix: listings and GETs never see it.
    const temporary = `${objectPath}.${randomBytes(6).toString('hex')}.partial`;
    const md5 = createHash('md5').update(content).digest('hex');
    try {
      await fs.promises.writeFile(temporary, content);
      await store.putMetadata(object.bucket, object.key, object.metadata, md5);
      await fs.promises.rename(temporary, objectPath);
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
    return { size: content.length, md5 };
  };
}
