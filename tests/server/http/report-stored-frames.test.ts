/**
 * A report sent to PACS with gating on, a stent border corrected by hand and a corrected lumen reads
 * each stored B-mode chunk once (it read every chunk three times when the gating, the stent and the
 * L-mode each walked the chunks on their own), and sends exactly what each reading gives alone.
 * The frames are the generator's stent case, one every 24th frame (as report-stent.test.ts).
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { setKeyFrame } from '../../../src/domain/annotations/contour-edits.ts';
import { emptyManifest, type AnnotationManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis, framesPerMm } from '../../../src/domain/contours/corrected-analysis.ts';
import { chunkCount, FRAMES_PER_CHUNK } from '../../../src/domain/images.ts';
import { detectStent } from '../../../src/domain/stent/stent-analysis.ts';
import { stentResults } from '../../../src/domain/stent/stent-results.ts';
import { createStrutDetector } from '../../../src/domain/stent/strut-detection.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { stentCase } from '../../../src/domain/synthetic/stent-cases.ts';
import { truthStentFrames } from '../../../src/domain/synthetic/stent-truth.ts';
import { recordGating } from '../../../src/server/contours/record-gating.ts';
import type { RecordRow } from '../../../src/server/db/records.ts';
import { reportCalcium } from '../../../src/server/http/report-calcium.ts';
import { reportFrames, reportLMode } from '../../../src/server/http/report-images.ts';
import { reportStent } from '../../../src/server/http/report-stent.ts';
import { reportFromStoredFrames } from '../../../src/server/http/report-stored-frames.ts';
import { circle, detectedContours } from '../../web/review/contours/contours-fixture.ts';

const STRIDE = 24;
const model = stentCase(1104).model;
const span = truthStentFrames(model)!;
const renderer = createBmodeRenderer(model);
const frames: Uint8Array[] = [];
for (let f = span.first - 4 * STRIDE; f <= span.last + 4 * STRIDE; f += STRIDE) frames.push(renderer.renderFrame(f));
const size = model.frameSizePx;
const pixelSpacingMm = model.pixelSpacingMm;
const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 12, pixelSpacingMm };
const record = { frameWidth: size, frameHeight: size, bmodeFrameCount: frames.length, ...geometry } as unknown as RecordRow;

/** The record's stored B-mode chunks, counting each read. */
function storedImaging() {
  const chunksRead: number[] = [];
  const imaging = {
    chunk: async (_record: RecordRow, series: string, index: number) => {
      expect(series).toBe('bmode');
      chunksRead.push(index);
      return zlib.gzipSync(Buffer.concat(frames.slice(index * FRAMES_PER_CHUNK, (index + 1) * FRAMES_PER_CHUNK)));
    },
  };
  return { imaging, chunksRead };
}

describe('the stored frames of a report sent to PACS', () => {
  it('reads each chunk once for the gating, the corrected stent, the re-read calcium and the images, and gives what each gives alone', async () => {
    const base = { ...detectedContours(frames.length), pixelSpacingMm };
    // Calcium detected on every slice, so that a corrected lumen's arc is re-read from its frame.
    const detected = { ...base, contours: base.contours.map((c) => ({ ...c, calcium: { arcDeg: 200, startDeg: 0, endDeg: 200, nodule: false } })) };
    const stored = stentResults(detectStent(frames.map((frame) => createStrutDetector({ frameWidth: size, frameHeight: size, centreX: size / 2, centreY: size / 2, pixelSpacingMm }).detect(frame)), framesPerMm(geometry)));
    expect(stored.segment).not.toBeNull();
    const slice = stored.segment!.distalSlice + 1;
    const radiusPx = (0.7 * Math.sqrt(stored.msa!.areaMm2 / Math.PI)) / pixelSpacingMm;
    const controlPoints = Array.from({ length: 12 }, (_, i) => ({ x: size / 2 + radiusPx * Math.cos((i / 12) * 2 * Math.PI), y: size / 2 + radiusPx * Math.sin((i / 12) * 2 * Math.PI) }));
    const manifest: AnnotationManifest = { ...setKeyFrame(emptyManifest(), 3, circle(120), 'lumen', 0), stentBorders: [{ slice, controlPoints, source: 'manual' }] };
    const analysis = correctedAnalysis(detected, manifest, geometry);
    const contours = { ...detected, stent: stored };

    const { imaging, chunksRead } = storedImaging();
    const sent = await reportFromStoredFrames(imaging, record, { detected: contours, manifest, analysis, geometry, gating: true });

    const everyChunk = Array.from({ length: chunkCount(frames.length) }, (_, i) => i);
    expect(everyChunk.length).toBeGreaterThan(1);
    expect(chunksRead).toEqual(everyChunk);

    // Each reading alone, on its own chunk reads: the same figures and images.
    const alone = storedImaging();
    expect(sent.stent).toEqual(await reportStent(alone.imaging, record, stored, manifest, analysis, geometry));
    expect(sent.stent).not.toBeNull();
    expect(sent.gating).toEqual(await recordGating(alone.imaging, record));
    const calcium = await reportCalcium(alone.imaging, record, detected, manifest, analysis);
    expect(sent.calcium).toEqual(calcium);
    expect(calcium.onCorrectedBorder).toEqual([3]);
    expect(sent.frames).toEqual(await reportFrames(alone.imaging, record, analysis));
    expect(sent.frames.length).toBeGreaterThan(0);
    expect(sent.lmode).toEqual(await reportLMode(alone.imaging, record));
    // Alone, the stent, the gating and the L-mode each read every chunk.
    expect(alone.chunksRead.length).toBeGreaterThanOrEqual(3 * everyChunk.length);
  }, 120_000);

  it('reads no chunk for the gating when gating is off, only those the images need', async () => {
    const detected = { ...detectedContours(frames.length), pixelSpacingMm };
    const analysis = correctedAnalysis(detected, emptyManifest(), geometry);
    const { imaging, chunksRead } = storedImaging();
    const sent = await reportFromStoredFrames(imaging, record, { detected, manifest: emptyManifest(), analysis, geometry, gating: false });
    expect(sent.gating).toBeNull();
    expect(sent.stent).toBeNull();
    expect(new Set(chunksRead).size).toBe(chunksRead.length);
  });
});
