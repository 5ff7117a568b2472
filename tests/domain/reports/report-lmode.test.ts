/**
 * The report's L-mode (issue 26): one column per slice from the horizontal cut through the frame's
 * centre, bounded for the longest pullback, embedded in the PDF under the plot with the MLA, the
 * references and the annotations marked where their slices are.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { newRuler } from '../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { LMODE_MAX_COLUMNS, LMODE_MAX_ROWS, lmodeCollector, lmodeOfLoadedFrames } from '../../../src/domain/reports/report-lmode.ts';
import { buildReportPdf } from '../../../src/domain/reports/report-pdf.ts';
import { detectedContours } from '../../web/review/contours/contours-fixture.ts';

const UNICODE_FONT = new Uint8Array(fs.readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
const hasPoppler = spawnSync('pdfimages', ['-v']).status === 0 && spawnSync('pdftoppm', ['-v']).status === 0;
const FIGURES = { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
/** The report's page layout, as report-pdf.ts sets it: the plot and the L-mode span the page between its margins. */
const MARGIN = 48;
const PAGE_WIDTH = 595.28;

describe('the L-mode collector', () => {
  it('keeps one column per slice from the centre row of each frame, sampled along the cut', () => {
    const collector = lmodeCollector(5, 8, 6);
    for (let index = 0; index < 5; index++) {
      const frame = new Uint8Array(48);
      // Row 3 is the centre of a 6-row frame: its pixels say which frame and which column they are.
      for (let x = 0; x < 8; x++) frame[3 * 8 + x] = 10 * index + x;
      collector.add(index, frame);
    }
    const { image, sliceCount } = collector.result();
    expect([image.width, image.height, sliceCount]).toEqual([5, 8, 5]);
    expect(Array.from({ length: 8 }, (_, row) => image.pixels[row * 5 + 3])).toEqual([30, 31, 32, 33, 34, 35, 36, 37]);
  });

  it('stays bounded for a 3,600-frame pullback of 512 x 512 frames: it wants only one frame per column', () => {
    const collector = lmodeCollector(3600, 512, 512);
    const wanted = Array.from({ length: 3600 }, (_, i) => i).filter((i) => collector.wants(i));
    expect(wanted).toHaveLength(LMODE_MAX_COLUMNS);
    expect(wanted.slice(0, 3)).toEqual([0, 3, 6]);
    const { image } = collector.result();
    expect([image.width, image.height]).toEqual([LMODE_MAX_COLUMNS, LMODE_MAX_ROWS]);
  });

  it('ignores frames it does not want and frames shorter than the header says', () => {
    const collector = lmodeCollector(4, 4, 4);
    collector.add(-1, new Uint8Array(16).fill(200));
    collector.add(9, new Uint8Array(16).fill(200));
    collector.add(0, new Uint8Array(3).fill(200));
    expect(collector.result().image.pixels.every((v) => v === 0)).toBe(true);
  });
});

describe('the L-mode of the frames a browser has loaded', () => {
  const frame = (value: number) => ({ width: 4, height: 4, pixels: new Uint8Array(16).fill(value) });
  it('is made when every frame it shows is loaded, and not at all when one is missing', () => {
    const lmode = lmodeOfLoadedFrames(3, (slice) => frame(slice * 10));
    expect(Array.from(lmode!.image.pixels.subarray(0, 3))).toEqual([10, 20, 30]);
    expect(lmodeOfLoadedFrames(3, (slice) => (slice === 2 ? null : frame(1)))).toBeUndefined();
    expect(lmodeOfLoadedFrames(0, () => frame(1))).toBeUndefined();
  });

  it.skipIf(!hasPoppler)('is in the PDF a browser makes from its loaded frames', async () => {
    const result = correctedAnalysis(detectedContours(50, {}), emptyManifest(), FIGURES);
    const bytes = await buildReportPdf(
      { patient: { name: 'Brown, Tomasz', patientId: 'DEM-001' }, record: { acquiredAt: '2026-01-02T03:04:05Z', modality: 'IVUS', recordId: 'r-1' }, result, manifest: emptyManifest(), figures: FIGURES, madeAt: new Date(), frameAt: () => ({ width: 32, height: 32, pixels: new Uint8Array(1024).fill(90) }) },
      UNICODE_FONT,
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-lmode-'));
    fs.writeFileSync(path.join(dir, 'report.pdf'), bytes);
    const images = spawnSync('pdfimages', ['-list', path.join(dir, 'report.pdf')], { encoding: 'utf8' }).stdout.split('\n').slice(2).filter((line) => line.trim() !== '');
    fs.rmSync(dir, { recursive: true, force: true });
    expect(images.some((line) => /\simage\s+50\s+32\s/.test(line)), images.join('\n')).toBe(true);
  });
});

describe.skipIf(!hasPoppler)('the L-mode in the report PDF (poppler-utils)', () => {
  it('is an image of the pullback, with the MLA, references and annotations marked over their slices', async () => {
    const slices = 400;
    const ruler = newRuler(emptyManifest(), 100, { x: 10, y: 10 }, { x: 20, y: 20 });
    const manifest = addAnnotation(emptyManifest(), ruler);
    const result = correctedAnalysis(detectedContours(slices, {}), manifest, FIGURES);
    const collector = lmodeCollector(slices, 64, 64);
    for (let i = 0; i < slices; i++) collector.add(i, new Uint8Array(64 * 64).fill(128));
    const bytes = await buildReportPdf(
      { patient: { name: 'Brown, Tomasz', patientId: 'DEM-001' }, record: { acquiredAt: '2026-01-02T03:04:05Z', modality: 'IVUS', recordId: 'r-1' }, result, manifest, figures: FIGURES, madeAt: new Date(), lmode: collector.result() },
      UNICODE_FONT,
    );
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-lmode-'));
    try {
      const file = path.join(dir, 'report.pdf');
      fs.writeFileSync(file, bytes);
      const images = spawnSync('pdfimages', ['-list', file], { encoding: 'utf8' }).stdout.split('\n').slice(2).filter((line) => line.trim() !== '');
      expect(images).toHaveLength(1);
      expect(images[0]).toMatch(/^\s*1\s+\d+\s+image\s+400\s+64\s/);

      // Rendered at 72 dpi, one pixel is one point: the strip is the band of rows that are the L-mode's grey.
      expect(spawnSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-png', file, path.join(dir, 'page')]).status).toBe(0);
      const page = PNG.sync.read(fs.readFileSync(path.join(dir, fs.readdirSync(dir).find((name) => name.startsWith('page'))!)));
      const at = (x: number, y: number) => {
        const i = 4 * (y * page.width + Math.round(x));
        return [page.data[i]!, page.data[i + 1]!, page.data[i + 2]!];
      };
      const grey = ([r, g, b]: number[]) => Math.abs(r! - 128) < 8 && Math.abs(g! - 128) < 8 && Math.abs(b! - 128) < 8;
      const stripRows = Array.from({ length: page.height }, (_, y) => y).filter((y) => grey(at(MARGIN + 20, y)) && grey(at(PAGE_WIDTH - MARGIN - 20, y)));
      expect(stripRows.length).toBeGreaterThan(60);
      const middle = stripRows[Math.floor(stripRows.length / 2)]!;
      const bottom = stripRows.at(-1)!;
      const xOf = (slice: number) => MARGIN + ((slice - 1) / (slices - 1)) * (PAGE_WIDTH - 2 * MARGIN);
      const nearby = (x: number, y: number, test: (rgb: number[]) => boolean) => [-1, 0, 1].some((dx) => test(at(x + dx, y)));
      const red = ([r, g, b]: number[]) => r! > 180 && g! < 100 && b! < 100;
      const green = ([r, g, b]: number[]) => g! > 140 && r! < 100 && b! < 120;
      const yellow = ([r, g, b]: number[]) => r! > 180 && g! > 140 && b! < 90;
      const { mla, references } = result.analysis;
      expect(nearby(xOf(mla!.index + 1), middle, red)).toBe(true);
      expect(nearby(xOf(references.distal!.index + 1), middle, green)).toBe(true);
      expect(nearby(xOf(references.proximal!.index + 1), middle, green)).toBe(true);
      // The ruler on slice 100 is a tick just under the strip; between markers the strip is plain grey.
      expect([2, 3, 4].some((dy) => nearby(xOf(100), bottom + dy, yellow))).toBe(true);
      const clear = [20, 60, 140, 380].filter((s) => ![mla!.index + 1, references.distal!.index + 1, references.proximal!.index + 1].some((m) => Math.abs(m - s) < 5));
      for (const slice of clear) expect(grey(at(xOf(slice), middle)), `slice ${slice}`).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
