import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { grayPng, reportFrameSlices, type ReportFrame } from '../../../src/domain/reports/report-frames.ts';
import { buildReportPdf } from '../../../src/domain/reports/report-pdf.ts';
import { detectedContours } from '../../web/review/contours/contours-fixture.ts';

const UNICODE_FONT = new Uint8Array(fs.readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
const hasPdfimages = spawnSync('pdfimages', ['-v']).status === 0;
const FIGURES = { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

/** A frame whose every pixel says where it is, so a decoder that swaps or shifts anything is caught. */
function gradient(width: number, height: number): ReportFrame {
  const pixels = new Uint8Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = (x * 7 + y * 13) & 0xff;
  return { width, height, pixels };
}

describe('the report frames', () => {
  it('are written as a greyscale PNG that a real decoder reads back pixel for pixel, across deflate blocks', () => {
    for (const [width, height] of [[3, 2], [300, 250]] as const) {
      const frame = gradient(width, height);
      const decoded = PNG.sync.read(Buffer.from(grayPng(frame)));
      expect([decoded.width, decoded.height]).toEqual([width, height]);
      const grey = new Uint8Array(width * height);
      for (let i = 0; i < grey.length; i++) grey[i] = decoded.data[4 * i]!;
      expect(grey).toEqual(frame.pixels);
    }
  });

  it('refuses pixels that do not fill the frame', () => {
    expect(() => grayPng({ width: 4, height: 4, pixels: new Uint8Array(15) })).toThrow(RangeError);
  });

  it('are the distal reference, the MLA and the proximal reference, in that order', () => {
    const result = correctedAnalysis(detectedContours(400, {}), emptyManifest(), FIGURES);
    const slices = reportFrameSlices(result);
    expect(slices.map((s) => s.role)).toEqual(['distal reference', 'MLA', 'proximal reference']);
    expect(slices[1]!.slice).toBe(result.analysis.mla!.index + 1);
  });

  it.skipIf(!hasPdfimages)('are embedded in the PDF as three images of the frames\' size', async () => {
    const result = correctedAnalysis(detectedContours(400, {}), emptyManifest(), FIGURES);
    const frames = reportFrameSlices(result).map(({ role, slice }) => ({ role, slice, frame: gradient(200, 200) }));
    const bytes = await buildReportPdf(
      { patient: { name: 'Brown, Tomasz', patientId: 'DEM-001' }, record: { acquiredAt: '2026-01-02T03:04:05Z', modality: 'IVUS', recordId: 'r-1' }, result, manifest: emptyManifest(), figures: FIGURES, madeAt: new Date(), frames },
      UNICODE_FONT,
    );
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-frames-')), 'report.pdf');
    fs.writeFileSync(file, bytes);
    const list = spawnSync('pdfimages', ['-list', file], { encoding: 'utf8' }).stdout;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    const images = list.split('\n').slice(2).filter((line) => line.trim() !== '');
    expect(images).toHaveLength(3);
    for (const line of images) expect(line).toMatch(/^\s*2\s+\d+\s+image\s+200\s+200\s/);
  });
});
