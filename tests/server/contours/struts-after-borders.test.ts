/**
 * Every chunk's stent struts are read after every border (issue 23: a 3,600-frame record's borders
 * within 15 s on two cores; the struts were about a quarter of each job). What a clinician relies
 * on: the final contours and MLA are handed over before any strut is read, every chunk's struts are
 * then read exactly once, and each frame's stent reading is the one its frame gives read alone.
 */
import zlib from 'node:zlib';
import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { createStrutDetector } from '../../../src/domain/stent/strut-detection.ts';
import { detectChunk, jobFrames, type ChunkReading } from '../../../src/server/contours/detect-chunk.ts';
import type { ContourWorkerPool } from '../../../src/server/contours/contour-worker-pool.ts';
import { detectRecord } from '../../../src/server/contours/record-detection.ts';
import { generateFrames } from '../../../src/server/imaging/demo-pullback.ts';
import { pullbackModelOf, RecordImaging } from '../../../src/server/imaging/record-imaging.ts';
import { memoryStore } from '../memory-store.ts';
import { smallDemoRecord } from '../small-demo-record.ts';

const silentLog = { error: () => {}, warn: () => {}, info: () => {} } as unknown as FastifyBaseLogger;
const CHUNKS = 5;
/** Seed 3 and its stented imaging: a post-PCI run whose frames show struts. */
const record = { ...smallDemoRecord({ id: '00000000-0000-4000-8000-000000000233', demoSeed: 3, bmodeFrameCount: 16 * CHUNKS }), imagingVersion: 'v2-stent' };

describe("a record's struts read after all of its borders", () => {
  it('hands over every border before any strut is read, then reads each chunk\'s struts once, each frame as read alone', async () => {
    const events: string[] = [];
    // Two lanes, the jobs run here: what each job was asked to read, in the order they ran.
    const pool: ContourWorkerPool = {
      size: 2,
      detect: async (job) => {
        events.push(job.read ?? 'borders-and-stent');
        return detectChunk(job, jobFrames(job, (gz) => zlib.gunzipSync(gz)));
      },
      close: async () => {},
    };
    const imaging = new RecordImaging(memoryStore(), null, silentLog);
    const storedChunk = imaging.chunk.bind(imaging);
    const strutChunks: number[] = [];
    imaging.chunk = (row, series, index, priority) => {
      if (events.includes('bordersDone')) strutChunks.push(index);
      return storedChunk(row, series, index, priority);
    };
    try {
      const { detections, stent } = await detectRecord(record, {
        imaging,
        pool,
        runChunks: 2,
        turn: async () => {},
        idle: () => false,
        stopped: () => false,
        afterChunk: async () => {},
        timing: { waitingForFramesMs: 0 },
        bordersDone: async (all) => {
          expect(all.filter(Boolean)).toHaveLength(16 * CHUNKS);
          events.push('bordersDone');
        },
      });
      const handover = events.indexOf('bordersDone');
      // Border jobs (and the mid-record runs' warm-ups) only, then the struts of every chunk.
      expect(events.slice(0, handover).every((read) => read === 'borders')).toBe(true);
      expect(events.slice(handover + 1)).toEqual(Array(CHUNKS).fill('stent' satisfies ChunkReading));
      expect(strutChunks.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4]);
      expect(detections).toHaveLength(16 * CHUNKS);
      // The same stent readings as each frame read on its own (as every chunk's job read them before).
      const frameBytes = record.frameWidth * record.frameHeight;
      const frames = generateFrames(pullbackModelOf(record), 0, 16 * CHUNKS);
      const struts = createStrutDetector({ frameWidth: record.frameWidth, frameHeight: record.frameHeight, pixelSpacingMm: record.pixelSpacingMm, centreX: 128, centreY: 128 });
      const alone = Array.from({ length: 16 * CHUNKS }, (_, k) => struts.detect(frames.subarray(k * frameBytes, (k + 1) * frameBytes)));
      expect(stent).toEqual(alone);
      expect(stent.some((reading) => reading.struts.length > 0)).toBe(true);
    } finally {
      imaging.close();
    }
  });
});
