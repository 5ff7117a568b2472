/**
 * What the browser downloads for a part of the app, from the Vite manifest of a build: an entry's
 * chunk and every chunk it imports statically, transitively (what must arrive before the part
 * runs). Dynamic imports are other parts, downloaded later. Used by `npm run bench:bundle` and by
 * the first-load budget test (issue 27).
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

export interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export const WEB_ROOT = path.resolve('dist/web');
/** Beside dist/web, not in it (vite.config.ts moves it): the public has no use for the chunk map. */
export const MANIFEST_PATH = path.resolve('dist/bundle-manifest.json');
/** The goal of issue 27 for sign-in and the patients list, and the one main chunk before it. */
export const FIRST_LOAD_BUDGET_BYTES = 250_000;
export const SINGLE_CHUNK_BEFORE_BYTES = 429_000;

export function readManifest(manifestPath = MANIFEST_PATH): Manifest {
  return JSON.parse(fs.readFileSync(manifestPath, 'utf8')) as Manifest;
}

/** The manifest keys of `key` and of everything it imports statically, transitively. */
export function staticClosure(manifest: Manifest, key: string): Set<string> {
  const seen = new Set<string>();
  const visit = (current: string) => {
    if (seen.has(current)) return;
    const chunk = manifest[current];
    if (!chunk) throw new Error(`The manifest has no chunk ${current}`);
    seen.add(current);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return seen;
}

/** The key of the dynamic entry whose source path ends with `sourceSuffix` (e.g. review/review-route.tsx). */
export function dynamicEntryKey(manifest: Manifest, sourceSuffix: string): string {
  const key = Object.keys(manifest).find((candidate) => candidate.endsWith(sourceSuffix) && manifest[candidate]!.isDynamicEntry);
  if (!key) throw new Error(`No dynamic entry ends with ${sourceSuffix}: is it still loaded on demand?`);
  return key;
}

export interface SizedChunk {
  file: string;
  bytes: number;
  gzipBytes: number;
}

/** The size of a built file (its path under dist/web), gzip-compressed as sizeChunks does. */
export function gzipBytesOf(file: string, webRoot = WEB_ROOT): number {
  return zlib.gzipSync(fs.readFileSync(path.join(webRoot, file)), { level: 9 }).length;
}

/** Each chunk's JavaScript file with its size as written and gzip-compressed (zlib, level 9 as Vite reports). */
export function sizeChunks(manifest: Manifest, keys: Iterable<string>, webRoot = WEB_ROOT): SizedChunk[] {
  const files = [...new Set([...keys].map((key) => manifest[key]!.file))].filter((file) => file.endsWith('.js'));
  return files
    .map((file) => {
      return { file, bytes: fs.statSync(path.join(webRoot, file)).size, gzipBytes: gzipBytesOf(file, webRoot) };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
}

export function totalGzip(chunks: SizedChunk[]): number {
  return chunks.reduce((sum, chunk) => sum + chunk.gzipBytes, 0);
}

/** The JavaScript sign-in and the patients list need: the page's entry and its static imports. */
export function firstLoad(manifest: Manifest, webRoot = WEB_ROOT): SizedChunk[] {
  return sizeChunks(manifest, staticClosure(manifest, 'index.html'), webRoot);
}

/** What opening a record adds to the first load: the review route's chunks not already loaded. */
export function reviewOpen(manifest: Manifest, webRoot = WEB_ROOT): SizedChunk[] {
  const loaded = staticClosure(manifest, 'index.html');
  const review = staticClosure(manifest, dynamicEntryKey(manifest, 'src/web/review/review-route.tsx'));
  return sizeChunks(manifest, [...review].filter((key) => !loaded.has(key)), webRoot);
}
