/**
 * A record's detection coarse to fine (issue 23, a first open's MLA within 20 s): the runs are taken
 * every run's first chunk first, and provisional contours are published once the whole pullback is
 * sampled. What a clinician relies on: the final contours are exactly those of detecting the runs
 * one after another (the provisional stage changes nothing), the provisional figures are the final
 * figures of the frames they rest on, its MLA is never below the final one, and nothing provisional
 * is left once the final contours are stored.
 */
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { buildRecordContours, hasBorder, RecordContoursSchema, type SliceDetection } from '../../src/domain/contours/api.ts';
import type { BorderCarry } from '../../src/domain/contours/detect-sequence.ts';
import { ProvisionalContoursSchema, type ProvisionalContours } from '../../src/domain/contours/provisional-contours.ts';
import { detectStent } from '../../src/domain/stent/stent-analysis.ts';
import { stentResults } from '../../src/domain/stent/stent-results.ts';
import { RecordContoursWithStentSchema } from '../../src/domain/stent/stored-stent.ts';
import { createStrutDetector } from '../../src/domain/stent/strut-detection.ts';
import { generateFrames } from '../../src/server/imaging/demo-pullback.ts';
import { detectChunk } from '../../src/server/contours/detect-chunk.ts';
import { detectionRuns } from '../../src/server/contours/detection-order.ts';
import { contoursKey, RecordContourService } from '../../src/server/contours/record-contours.ts';
import { smallDemoRecord } from './small-demo-record.ts';
import { createFrameWorkerPool } from '../../src/server/imaging/frame-worker-pool.ts';
import { pullbackModelOf, RecordImaging } from '../../src/server/imaging/record-imaging.ts';
import type { BlobStore } from '../../src/server/storage/blob-store.ts';

const silentLog = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;
const noQueue = { send: async () => null };
const CHUNKS = 6;
const RUN_CHUNKS = 2;

/** A demo record of six 16-frame chunks, 256-pixel frames over the demo's 5.12 mm. */
const record = smallDemoRecord({ id: '00000000-0000-4000-8000-000000000231', demoSeed: 31, bmodeFrameCount: 16 * CHUNKS });
const framesPerMm = record.frameRateHz / record.pullbackSpeedMmPerS;

/** A store that keeps every provisional body put into it. */
function recordingStore(): { store: BlobStore; provisional: ProvisionalContours[] } {
  const blobs = new Map<string, Buffer>();
  const provisional: ProvisionalContours[] = [];
  const store: BlobStore = {
    get: async (key) => blobs.get(key) ?? null,
    put: async (key, data) => {
      if (key.endsWith('.provisional.json.gz')) provisional.push(ProvisionalContoursSchema.parse(JSON.parse(zlib.gunzipSync(data).toString('utf8'))));
      blobs.set(key, Buffer.from(data));
    },
    deletePrefix: async (prefix) => {
      for (const key of [...blobs.keys()]) if (key.startsWith(prefix)) blobs.delete(key);
    },
    putFile: () => Promise.reject(new Error('not used by contours')),
    getFile: () => Promise.reject(new Error('not used by contours')),
  };
  return { store, provisional };
}

/** The reference: the runs detected one after another, each mid-record one warmed up on the two frames before it. */
function detectedRunByRun(): SliceDetection[] {
  const model = pullbackModelOf(record);
  const geometry = { frameWidth: 256, frameHeight: 256, pixelSpacingMm: record.pixelSpacingMm };
  const detections: SliceDetection[] = [];
  for (const run of detectionRuns(CHUNKS, RUN_CHUNKS)) {
    let carry: BorderCarry | null = null;
    if (run.first > 0) carry = detectChunk({ ...geometry, carry: null, lastFrames: 2 }, generateFrames(model, run.first * 16 - 2, run.first * 16)).carry;
    for (let chunk = run.first; chunk < run.end; chunk++) {
      const result = detectChunk({ ...geometry, carry }, generateFrames(model, chunk * 16, chunk * 16 + 16));
      detections.push(...result.detections);
      carry = result.carry;
    }
  }
  return detections;
}

/** The reference stent: every frame's struts read in frame order, the record's stent from them all. */
function stentReadInOrder() {
  const frames = generateFrames(pullbackModelOf(record), 0, record.bmodeFrameCount);
  const struts = createStrutDetector({ frameWidth: 256, frameHeight: 256, pixelSpacingMm: record.pixelSpacingMm, centreX: 128, centreY: 128 });
  const frameBytes = 256 * 256;
  const readings = Array.from({ length: record.bmodeFrameCount }, (_, k) => struts.detect(frames.subarray(k * frameBytes, (k + 1) * frameBytes)));
  return stentResults(detectStent(readings, framesPerMm));
}

describe('coarse-to-fine detection of a record', () => {
  it('stores exactly the contours of the runs detected one after another, after provisional figures that are the final ones of the frames sampled', async () => {
    const { store, provisional } = recordingStore();
    const pool = createFrameWorkerPool(1);
    const imaging = new RecordImaging(store, pool, silentLog);
    const service = new RecordContourService({ store, imaging, workers: 2, log: silentLog, jobs: noQueue, runChunks: RUN_CHUNKS });
    try {
      await service.detect(record, true);
      const stored = await store.get(contoursKey(record));
      const final = RecordContoursSchema.parse(JSON.parse(zlib.gunzipSync(stored!).toString('utf8')));
      const reference = buildRecordContours({ version: 'v1', pixelSpacingMm: record.pixelSpacingMm, framesPerMm, detections: detectedRunByRun() });
      expect(final).toEqual(reference);
      // The first pass reads borders alone and its chunks' struts come last (issue 23): the stored stent is still that of every frame read in order.
      expect(RecordContoursWithStentSchema.parse(JSON.parse(zlib.gunzipSync(stored!).toString('utf8'))).stent).toEqual(stentReadInOrder());

      // The first pass (one chunk of each of the three runs) was published, and only provisional frames were in it.
      expect(provisional.length).toBeGreaterThanOrEqual(1);
      const first = provisional[0]!;
      expect(first).toMatchObject({ status: 'provisional', frameCount: 96 });
      expect(first.detectedFrames).toBeLessThan(96);
      // It samples the whole pullback: a chunk of every run.
      for (const run of detectionRuns(CHUNKS, RUN_CHUNKS)) expect(first.slices.some((s) => s.slice > run.first * 16 && s.slice <= run.end * 16)).toBe(true);
      for (const body of provisional) {
        for (const slice of body.slices) {
          const finalSlice = final.contours[slice.slice - 1]!;
          expect(slice.areaMm2, `slice ${slice.slice}: the provisional area is the final one`).toBe(hasBorder(finalSlice) ? finalSlice.areaMm2 : null);
        }
        // Among fewer frames the smallest lumen can only be larger.
        if (body.mla && final.mla) expect(body.mla.areaMm2).toBeGreaterThanOrEqual(final.mla.areaMm2);
      }
      // Nothing provisional outlives the final contours.
      expect(await service.provisional(record)).toBeNull();
      expect((await service.state(record)).ready).toBe(true);
    } finally {
      await service.close();
      imaging.close();
      await pool.close();
    }
  }, 120_000);
});
