/**
 * Issue 28: the calcium sent to PACS (report and SR) is the review's: arcs re-read from the stored
 * frames on every lumen border the clinician corrected, one decompressed chunk for each chunk that
 * holds such a frame, and the clinician's own arcs over all.
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { setKeyFrame } from '../../../src/domain/annotations/contour-edits.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { FRAMES_PER_CHUNK } from '../../../src/domain/images.ts';
import { reportCalcium } from '../../../src/server/http/report-calcium.ts';
import type { RecordRow } from '../../../src/server/db/records.ts';
import { circle, detectedContours } from '../../web/review/contours/contours-fixture.ts';

const SLICES = 40;
const figures = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5, pixelSpacingMm: 0.01 };

describe('the calcium of the report sent to PACS', () => {
  it('re-reads the corrected slices from their stored chunks and puts the hand-set arcs over all', async () => {
    const base = detectedContours(SLICES);
    // 200° of calcium detected on every slice; the stored frames are blank (no echo: nothing to read).
    const detected = { ...base, contours: base.contours.map((c) => ({ ...c, calcium: { arcDeg: 200, startDeg: 0, endDeg: 200, nodule: false } })) };
    const manifest = { ...setKeyFrame(emptyManifest(), 20, circle(120), 'lumen', 0), calcium: [{ slice: 5, startDeg: 0, arcDeg: 360 }] };
    const analysis = correctedAnalysis(detected, manifest, figures);
    const chunksRead: number[] = [];
    const imaging = {
      chunk: async (_record: RecordRow, series: string, index: number) => {
        expect(series).toBe('bmode');
        chunksRead.push(index);
        return zlib.gzipSync(new Uint8Array(FRAMES_PER_CHUNK * 512 * 512));
      },
    };
    const record = { frameWidth: 512, frameHeight: 512, ...figures } as unknown as RecordRow;
    const calcium = await reportCalcium(imaging, record, detected, manifest, analysis);
    // Slice 20 lies in chunk 1 (slices 17 to 32): that chunk alone is read.
    expect(chunksRead).toEqual([Math.floor(19 / FRAMES_PER_CHUNK)]);
    expect(calcium.onCorrectedBorder).toEqual([20]);
    expect(calcium.bySlice[19]!.arcDeg).toBe(0);
    expect(calcium.setByHand).toEqual([5]);
    expect(calcium.score.circumferential).toEqual({ point: 1, index: 4 });
    expect(calcium.handCorrected).toEqual([]);
  });

  it('reads no frame where no border was corrected', async () => {
    const detected = detectedContours(SLICES);
    const imaging = { chunk: async () => { throw new Error('no chunk should be read'); } };
    const record = { frameWidth: 512, frameHeight: 512, ...figures } as unknown as RecordRow;
    const calcium = await reportCalcium(imaging, record, detected, emptyManifest(), correctedAnalysis(detected, emptyManifest(), figures));
    expect(calcium.onCorrectedBorder).toEqual([]);
  });
});
