/**
 * Issue 28: the stent sent to PACS (report and SR) is the review's. With a stent border corrected
 * by hand the server reads the record's stored frames again, as the page reads its loaded frames,
 * and measures the stent on the drawn border: the PDF's and the SR's MSA is the drawn one, the
 * page's figures to the last digit, and both name the slice corrected by hand. Without a
 * correction, the stent the detection stored is sent and no frame is read.
 * The frames are the generator's stent case, one every 24th frame (as pacs-send-stent.test.ts).
 */
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { emptyManifest, type AnnotationManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis, framesPerMm } from '../../../src/domain/contours/corrected-analysis.ts';
import { lumenAreaMm2 } from '../../../src/domain/contours/measurements.ts';
import { FRAMES_PER_CHUNK } from '../../../src/domain/images.ts';
import { detectStent } from '../../../src/domain/stent/stent-analysis.ts';
import { stentOfReadings } from '../../../src/domain/stent/stent-frame-readings.ts';
import { figuresWithReferences, NO_MOVED_REFERENCES } from '../../../src/domain/stent/stent-references.ts';
import { stentReportSection } from '../../../src/domain/stent/stent-report.ts';
import { stentResults } from '../../../src/domain/stent/stent-results.ts';
import { createStrutDetector } from '../../../src/domain/stent/strut-detection.ts';
import { createBmodeRenderer } from '../../../src/domain/synthetic/bmode-frame.ts';
import { stentCase } from '../../../src/domain/synthetic/stent-cases.ts';
import { truthStentFrames } from '../../../src/domain/synthetic/stent-truth.ts';
import type { RecordRow } from '../../../src/server/db/records.ts';
import type { Naturalized } from '../../../src/server/dicom/sr/dcmjs.ts';
import { STENT_CODES, stentGroup } from '../../../src/server/dicom/sr/stent-group.ts';
import { reportStent } from '../../../src/server/http/report-stent.ts';
import { readStentFrames } from '../../../src/web/review/stent/stent-reading.ts';
import { detectedContours } from '../../web/review/contours/contours-fixture.ts';

const STRIDE = 24;

/** The stent case's frames from 4 strides before the stent to 4 after it, one every STRIDE. */
function stentedFrames() {
  const model = stentCase(1104).model;
  const span = truthStentFrames(model)!;
  const renderer = createBmodeRenderer(model);
  const frames: Uint8Array[] = [];
  for (let f = span.first - 4 * STRIDE; f <= span.last + 4 * STRIDE; f += STRIDE) frames.push(renderer.renderFrame(f));
  return { frames, size: model.frameSizePx, pixelSpacingMm: model.pixelSpacingMm };
}

const stented = stentedFrames();
const { frames, size, pixelSpacingMm } = stented;
// 2.5 frames/mm, as the frames were taken.
const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 12, pixelSpacingMm };
const record = { frameWidth: size, frameHeight: size, bmodeFrameCount: frames.length, ...geometry } as unknown as RecordRow;
const detected = { ...detectedContours(frames.length), pixelSpacingMm };
// The stent the detection job stores with the contours: its reading of the same frames.
const detector = createStrutDetector({ frameWidth: size, frameHeight: size, centreX: size / 2, centreY: size / 2, pixelSpacingMm });
const stored = stentResults(detectStent(frames.map((frame) => detector.detect(frame)), framesPerMm(geometry)));

/** The record's stored B-mode chunks, counting those read. */
function storedImaging() {
  const chunksRead: number[] = [];
  const imaging = {
    chunk: async (_record: RecordRow, series: string, index: number) => {
      expect(series).toBe('bmode');
      chunksRead.push(index);
      const inChunk = frames.slice(index * FRAMES_PER_CHUNK, (index + 1) * FRAMES_PER_CHUNK);
      return zlib.gzipSync(Buffer.concat(inChunk));
    },
  };
  return { imaging, chunksRead };
}

/** The SR items under a node, depth first. */
const all = (node: Naturalized): Naturalized[] => ((node.ContentSequence as Naturalized[] | undefined) ?? []).flatMap((child) => [child, ...all(child)]);
const conceptOf = (item: Naturalized) => (item.ConceptNameCodeSequence as Naturalized[] | undefined)?.[0]?.CodeValue;
const frameOf = (slice: number) => ({ sopClassUid: '1.2.840.10008.5.1.4.1.1.14.1', sopInstanceUid: '1.2.3', frame: slice });

describe('the stent of the report sent to PACS', () => {
  it('measures the stent on the border the clinician drew, as the page does from the same frames, and names the slice', async () => {
    expect(stored.segment).not.toBeNull();
    expect(stored.msa).not.toBeNull();
    // A border drawn well inside the fitted one on a slice of the segment other than the MSA's: it becomes the MSA.
    const slice = stored.segment!.distalSlice + 1 === stored.msa!.slice ? stored.segment!.distalSlice + 2 : stored.segment!.distalSlice + 1;
    const radiusPx = (0.7 * Math.sqrt(stored.msa!.areaMm2 / Math.PI)) / pixelSpacingMm;
    const controlPoints = Array.from({ length: 12 }, (_, i) => ({
      x: size / 2 + radiusPx * Math.cos((i / 12) * 2 * Math.PI),
      y: size / 2 + radiusPx * Math.sin((i / 12) * 2 * Math.PI),
    }));
    const manifest: AnnotationManifest = { ...emptyManifest(), stentBorders: [{ slice, controlPoints, source: 'manual' }] };
    const analysis = correctedAnalysis(detected, manifest, geometry);
    const { imaging, chunksRead } = storedImaging();

    const sent = (await reportStent(imaging, record, stored, manifest, analysis, geometry))!;

    // Every stored frame was read, chunk by chunk.
    expect(chunksRead).toEqual(Array.from({ length: Math.ceil(frames.length / FRAMES_PER_CHUNK) }, (_, i) => i));
    // The page: its reading of the loaded frames, measured with the same correction, figures with the references where the analysis puts them.
    const read = (await readStentFrames((s) => ({ width: size, height: size, pixels: frames[s - 1]! }), frames.length, pixelSpacingMm, () => {}, new AbortController().signal))!;
    const inPage = stentOfReadings(read, framesPerMm(geometry), manifest.stentBorders!, pixelSpacingMm);
    const references = analysis.analysis.references;
    const pageFigures = figuresWithReferences(
      inPage,
      {
        frameCount: analysis.slices.length,
        framesPerMm: framesPerMm(geometry),
        lumenAreasMm2: analysis.slices.map((s) => s.areaMm2 ?? NaN),
        vesselAreasMm2: analysis.slices.map((s) => s.vessel?.areaMm2 ?? NaN),
        referenceFrames: { distal: references.distal?.index ?? null, proximal: references.proximal?.index ?? null },
      },
      NO_MOVED_REFERENCES,
    );
    expect(sent.results).toEqual(stentResults(inPage));
    // Both read the references the manifest keeps (none moved here).
    expect(sent.figures).toEqual(pageFigures);
    // The MSA is the drawn one, not the stored (fitted) one.
    expect(sent.results.msa!.slice).toBe(slice);
    expect(sent.results.msa!.areaMm2).toBeCloseTo(lumenAreaMm2(controlPoints, pixelSpacingMm), 3);
    expect(sent.results.msa!.areaMm2).toBeLessThan(stored.msa!.areaMm2);

    // The PDF names the slice and gives the drawn MSA.
    const pdf = stentReportSection(sent.results, sent.figures, sent.manualSlices).lines.join('\n');
    expect(pdf).toContain(`MSA ${sent.results.msa!.areaMm2.toFixed(2)} mm² at slice ${slice}`);
    expect(pdf).toContain(`Stent border corrected by hand on slice ${slice}`);
    // The SR: the MSA on the drawn slice, and the slice named by its own code.
    const group = stentGroup(sent, frameOf)!;
    const msa = all(group).find((item) => conceptOf(item) === STENT_CODES.msa.value)!;
    expect(Number((msa.MeasuredValueSequence as Naturalized[])[0]!.NumericValue)).toBeCloseTo(sent.results.msa!.areaMm2, 6);
    expect(all(msa).find((item) => item.ValueType === 'IMAGE')!.ReferencedSOPSequence).toMatchObject([{ ReferencedFrameNumber: slice }]);
    const byHand = all(group).find((item) => conceptOf(item) === 'STENTBYHAND')!;
    expect(byHand.TextValue).toBe(`slices ${slice}`);
  });

  it('sends the stored stent and reads no frame where no stent border was corrected', async () => {
    const analysis = correctedAnalysis(detected, emptyManifest(), geometry);
    const imaging = {
      chunk: async () => {
        throw new Error('no chunk should be read');
      },
    };
    const sent = (await reportStent(imaging, record, stored, emptyManifest(), analysis, geometry))!;
    expect(sent.results).toBe(stored);
    expect(all(stentGroup(sent, frameOf)!).some((item) => conceptOf(item) === 'STENTBYHAND')).toBe(false);
    // Contours stored before the server read stents, and no correction: no stent to send.
    expect(await reportStent(imaging, record, undefined, emptyManifest(), analysis, geometry)).toBeNull();
  });
});
