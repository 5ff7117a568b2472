/**
 * `npm run bench:bundle` (after `npm run build`): the JavaScript the browser downloads for sign-in
 * and the patients list (the page's entry and its static imports), and what opening a record adds
 * (the review route with pixi and the codecs), gzip-sized with zlib, against the issue 27 goal of
 * 250 KB and the single main chunk before it (429 KB gzip). Prints figures; asserts nothing (the
 * budget is checked by e2e/first-load.spec.ts).
 */
import fs from 'node:fs';
import {
  FIRST_LOAD_BUDGET_BYTES,
  firstLoad,
  MANIFEST_PATH,
  readManifest,
  reviewOpen,
  SINGLE_CHUNK_BEFORE_BYTES,
  totalGzip,
  type SizedChunk,
} from './bundle-chunks.ts';

// kB of 1,000 bytes, as Vite prints them (and as the issue measured the one main chunk).
const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`;

function printChunks(title: string, chunks: SizedChunk[]) {
  console.log(`\n${title}`);
  for (const chunk of chunks) console.log(`  ${chunk.file.padEnd(48)} ${kb(chunk.bytes).padStart(10)}  gzip ${kb(chunk.gzipBytes).padStart(9)}`);
  console.log(`  ${'total'.padEnd(48)} ${kb(chunks.reduce((sum, c) => sum + c.bytes, 0)).padStart(10)}  gzip ${kb(totalGzip(chunks)).padStart(9)}`);
}

if (!fs.existsSync(MANIFEST_PATH)) {
  console.error(`No build manifest at ${MANIFEST_PATH}: run npm run build first.`);
  process.exit(1);
}
const manifest = readManifest();
const first = firstLoad(manifest);
const review = reviewOpen(manifest);
printChunks('First load (sign-in, patients list): the entry and its static imports', first);
printChunks('Opening a record adds (the review route, pixi, the codecs)', review);

const firstGzip = totalGzip(first);
console.log(`\nFirst load: ${kb(firstGzip)} gzip, goal ≤ ${kb(FIRST_LOAD_BUDGET_BYTES)} (${(firstGzip / FIRST_LOAD_BUDGET_BYTES).toFixed(2)}x the goal: ${firstGzip <= FIRST_LOAD_BUDGET_BYTES ? 'met' : 'NOT met'})`);
console.log(`Before (one main chunk): ${kb(SINGLE_CHUNK_BEFORE_BYTES)} gzip; first load now ${(firstGzip / SINGLE_CHUNK_BEFORE_BYTES).toFixed(2)}x that`);
console.log(`First load + review open: ${kb(firstGzip + totalGzip(review))} gzip (the report's pdf-lib and fontkit load later still, when a report is made)`);
