/**
 * Issue 28's manifest fields saved and loaded through the annotations API: stent borders corrected by
 * hand and stent references moved by hand are kept exactly as saved, and a bad one is refused with
 * 400 naming the problem, writing nothing.
 */
import { describe, expect, it } from 'vitest';
import { annotationsServer, sampleManifest } from './annotations-server.ts';
import { postgresUnavailable } from './test-server.ts';

describe.skipIf(postgresUnavailable)('saving and loading the issue-28 manifest fields', () => {
  const { freshRecord, save, get, storedVersions } = annotationsServer();

  it('saves stent borders corrected by hand and finds them again as saved; refuses a bad one with 400 naming the problem, and writes nothing (issue 28)', async () => {
    const record = freshRecord();
    const ring = (radius: number) => Array.from({ length: 16 }, (_, i) => ({ x: 256 + radius * Math.cos(i / 2.55), y: 256 + radius * Math.sin(i / 2.55) }));
    const stentBorders = [
      { slice: 2, controlPoints: ring(120), source: 'manual' as const },
      { slice: 4, controlPoints: ring(130), source: 'manual' as const },
    ];
    const manifest = { ...sampleManifest(), stentBorders };
    expect((await save(record, manifest)).statusCode).toBe(201);
    expect((await get(`/api/demo/records/${record.recordId}/annotations`)).json().manifest).toEqual(manifest);
    const beyond = await save(record, { ...manifest, stentBorders: [{ ...stentBorders[0]!, slice: record.slices + 1 }] }, { baseVersion: 1 });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().problems).toEqual([`stentBorders[0].slice: slice ${record.slices + 1} is beyond the record's ${record.slices} slices`]);
    const twice = await save(record, { ...manifest, stentBorders: [stentBorders[0]!, stentBorders[0]!] }, { baseVersion: 1 });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().problems).toEqual(['stentBorders[1].slice: slice 2 has two stent borders']);
    expect(await storedVersions(record.recordId)).toBe(1);
  });

  it('saves the stent references moved by hand and finds them again as saved; refuses one beyond the record or on no slice with 400, and writes nothing (issue 28)', async () => {
    const record = freshRecord();
    const manifest = { ...sampleManifest(), stentReferences: { distal: 2, proximal: record.slices } };
    expect((await save(record, manifest)).statusCode).toBe(201);
    expect((await get(`/api/demo/records/${record.recordId}/annotations`)).json().manifest).toEqual(manifest);
    const beyond = await save(record, { ...manifest, stentReferences: { proximal: record.slices + 1 } }, { baseVersion: 1 });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json().problems).toEqual([`stentReferences.proximal: slice ${record.slices + 1} is beyond the record's ${record.slices} slices`]);
    const zero = await save(record, { ...manifest, stentReferences: { distal: 0 } }, { baseVersion: 1 });
    expect(zero.statusCode).toBe(400);
    expect(zero.json().problems).toEqual(['stentReferences.distal: distal must be 1 or more (slices are 1-based)']);
    expect(await storedVersions(record.recordId)).toBe(1);
  });

});
