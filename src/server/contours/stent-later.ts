/**
 * The final contours stored before their stent (issue 23: the MLA within seconds of the last border,
 * not after the stent struts, which are read after every border). The contours are stored twice under the same key: once
 * every border is in, marked `stentPending`, beside a marker file that says so without unzipping
 * them; then with the stent, after which the marker goes. A reader that finds the marker knows the
 * stent is still to come (or must be read again: its detection stopped with its server).
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { RecordContours } from '../../domain/contours/api.ts';
import type { RecordContoursWithStent } from '../../domain/stent/stored-stent.ts';
import type { BlobStore } from '../storage/blob-store.ts';

const gzip = promisify(zlib.gzip);
const gunzip = promisify(zlib.gunzip);

/** Where a record's final contours go, and the marker present while they wait for their stent. */
export interface StentLaterKeys {
  readonly contours: string;
  readonly stentPending: string;
}

/** The contours without their stent, marked as waiting for it: the marker first, so a poll never finds them without it. */
export async function storeBordersFirst(store: BlobStore, keys: StentLaterKeys, contours: RecordContours): Promise<void> {
  await store.put(keys.stentPending, Buffer.from(new Date().toISOString()));
  const body: RecordContoursWithStent = { ...contours, stentPending: true };
  await store.put(keys.contours, await gzip(JSON.stringify(body), { level: 6 }));
}

/**
 * The contours with their stent in place of those waiting for it, then the marker goes. `stent`
 * undefined: its reading failed for good, the contours go on without one (as those stored before
 * the server read stents: the review reads it from the frames on request).
 */
export async function storeWithStent(store: BlobStore, keys: StentLaterKeys, contours: RecordContours, stent: RecordContoursWithStent['stent']): Promise<void> {
  const body: RecordContoursWithStent = { ...contours, ...(stent === undefined ? {} : { stent }) };
  await store.put(keys.contours, await gzip(JSON.stringify(body), { level: 6 }));
  await store.deletePrefix(keys.stentPending);
}

/** The stored contours' borders and figures, without their stent fields. */
export async function storedBorders(gz: Buffer): Promise<RecordContours> {
  return (await storedContours(gz)).contours;
}

/** The stored contours' borders and figures, and their stent where it is in. */
export async function storedContours(gz: Buffer): Promise<{ contours: RecordContours; stent: RecordContoursWithStent['stent'] }> {
  const { stent, stentPending: _pending, ...contours } = JSON.parse((await gunzip(gz)).toString('utf8')) as RecordContoursWithStent;
  return { contours, stent };
}

/** Whether the stored contours still wait for their stent. */
export async function stentPending(store: BlobStore, keys: StentLaterKeys): Promise<boolean> {
  return (await store.get(keys.stentPending)) !== null;
}
