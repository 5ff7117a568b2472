/**
 * `node bench/made-chunk-bytes.ts <tree> <outDir>`: every byte a first open makes, stores and sends,
 * from the code of the tree at <tree> (this one, or a `git archive` of another commit with
 * node_modules linked), for `diff -r` between two trees: a speed change must not change one
 * (issue 27). Demo seeds 1 (pre-PCI) and 3 (post-PCI, stented), 3,600-frame records of 512 px
 * with a 120-frame angiogram: B-mode chunks 0-10 and angio chunks 0-2 made through RecordImaging
 * on 2 real frame workers into a LocalDirectoryStore (the stored record's files: gzip chunk and
 * frame pack), plus the pack and the gzip chunk as answered to the page's request.
 */
import fs from 'node:fs';
import path from 'node:path';
const [tree, out] = process.argv.slice(2) as [string, string];
const { RecordImaging } = await import(`${tree}/src/server/imaging/record-imaging.ts`);
const { createFrameWorkerPool } = await import(`${tree}/src/server/imaging/frame-worker-pool.ts`);
const { LocalDirectoryStore } = await import(`${tree}/src/server/storage/local-directory-store.ts`);
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(path.join(out, 'sent'), { recursive: true });
const pool = createFrameWorkerPool(2);
const log = { error: (...args: unknown[]) => console.error(...args), warn: () => {}, info: () => {} };
const imaging = new RecordImaging(new LocalDirectoryStore(path.join(out, 'store')), pool, log);
for (const [seed, version] of [[1, 'v1'], [3, 'v2-stent']] as const) {
  const record = {
    id: `00000000-0000-4000-8000-00000000000${seed}`, tenantId: 'demo', patientId: 'DEM-001', imagingVersion: version, imagingSource: 'demo',
    demoSeed: seed, bmodeFrameCount: 3600, angioFrameCount: 120, frameWidth: 512, frameHeight: 512, angioWidth: 512, angioHeight: 512,
    pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5, chunkFormat: 'frame-pack',
  };
  const wanted = [...Array.from({ length: 11 }, (_, i) => ['bmode', i] as const), ...Array.from({ length: 3 }, (_, i) => ['angio', i] as const)];
  await Promise.all(wanted.map(async ([series, index]) => {
    const pack = await imaging.framePack(record, series, index, 'demand');
    fs.writeFileSync(path.join(out, 'sent', `${seed}-${series}-${index}.pack`), pack);
    await imaging.storedChunk(record, series, index, 'demand');
    fs.writeFileSync(path.join(out, 'sent', `${seed}-${series}-${index}.gz`), await imaging.chunk(record, series, index, 'demand'));
  }));
}
imaging.close();
await pool.close();
const files = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));
console.log(`${files(out).length} files in ${out}`);
