/**
 * The one-page pullback report, built in the domain so that the browser's download and the server's
 * Encapsulated PDF are one report: pdf-lib loads and runs in Node as in the browser.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { newRuler } from '../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { analysisLines, buildReportPdf, reportHeaderLines } from '../../../src/domain/reports/report-pdf.ts';
import { setManualContour } from '../../../src/domain/annotations/contour-edits.ts';
import { circle, detectedContours } from '../../web/review/contours/contours-fixture.ts';

/** The font the product ships for the report (the server reads it so, the browser fetches it as an asset). */
const UNICODE_FONT = new Uint8Array(fs.readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));

describe('pullback report', () => {
  it('is a one-page PDF titled with the patient', async () => {
    const detected = detectedContours(50, { 7: 0.2, 8: 0.3 });
    const manifest = addAnnotation(emptyManifest(), newRuler(emptyManifest(), 3, { x: 0, y: 0 }, { x: 100, y: 0 }));
    const bytes = await buildReportPdf({
      patient: { name: 'Brown, Tomasz', patientId: 'DEM-001' },
      record: { acquiredAt: '2025-12-25T10:00:00Z', modality: 'IVUS', recordId: 'r-1' },
      result: correctedAnalysis(detected, manifest, { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 }),
      manifest,
      figures: { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 },
      madeAt: new Date('2026-11-22T06:00:00Z'),
    }, UNICODE_FONT);
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe('IVUS pullback report DEM-001');
  });

  it('gives the vessel area and plaque burden at the MLA, the maximal plaque burden and the low-confidence count', () => {
    const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
    // A corrected lumen of radius 50 px (0.79 mm²) on slice 20 makes it the MLA; its vessel stays the automatic 12 mm².
    const manifest = setManualContour(emptyManifest(), 20, circle(50));
    const lines = analysisLines(correctedAnalysis(detectedContours(50, { 7: 0.2, 8: 0.3 }), manifest, geometry));
    expect(lines[0]).toBe('Minimal lumen area: 0.78 mm² at slice 20 (0.3 mm)');
    expect(lines[1]).toMatch(/^At the MLA: minimal lumen diameter \d+\.\d\d mm, vessel area 12.00 mm², plaque burden 93 %$/);
    expect(lines[2]).toMatch(/^Distal reference: \d+\.\d\d mm², mean diameter 2.50 mm \(min 2.00 mm\), slice \d+ at \d+\.\d mm$/);
    expect(lines[4]).toMatch(/^Area stenosis: \d+ %; lesion length \(distal to proximal reference\): \d+\.\d mm$/);
    expect(lines[5]).toBe('Maximal plaque burden: 93 % at slice 20 (0.3 mm)');
    expect(lines[6]).toBe('Low-confidence slices (automatic borders to check): 2');
    expect(lines[7]).toBe('Contours: automatic lumen and vessel detection, 1 slice corrected by hand');
    const none = analysisLines(correctedAnalysis(detectedContours(0), emptyManifest(), geometry));
    expect(none).toContain('Maximal plaque burden: -');
    expect(none).toContain('At the MLA: -');
  });

  const figures = { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
  const patient = { name: 'Brown, Tomasz', patientId: 'DEM-001' };

  it('marks the figures the files did not give as assumed, and an unknown acquisition date as unknown', () => {
    const lines = reportHeaderLines({
      patient,
      record: { acquiredAt: '2026-03-12T10:15:00Z', modality: 'IVUS', recordId: 'r-1', assumed: ['acquiredAt', 'pixelSpacing', 'pullbackSpeed'] },
      figures,
    });
    expect(lines).toEqual([
      'Patient: Brown, Tomasz, ID DEM-001, born unknown',
      'Record: IVUS, acquired unknown',
      'Acquisition: 0.01 mm/px (assumed) · 30 frames/s · 0.5 mm/s (assumed)',
      'Review: annotations not saved yet',
      'Figures marked (assumed) were not in the files: lengths, areas and positions along the pullback rest on them.',
    ]);
  });

  it('writes the figures read from the files plainly', () => {
    const lines = reportHeaderLines({ patient, record: { acquiredAt: '2025-12-25T10:00:00Z', modality: 'IVUS', recordId: 'r-1' }, figures });
    expect(lines[1]).toBe(`Record: IVUS, acquired ${new Date('2025-12-25T10:00:00Z').toLocaleString('en-US')}`);
    expect(lines[2]).toBe('Acquisition: 0.01 mm/px · 30 frames/s · 0.5 mm/s');
    expect(lines.join('\n')).not.toContain('assumed');
  });

  it('names the patient with ID and birth date, and who saved the review and when', () => {
    const lines = reportHeaderLines({
      patient: { ...patient, birthDate: '1961-04-09' },
      record: { acquiredAt: '2025-12-25T10:00:00Z', modality: 'IVUS', recordId: 'r-1' },
      figures,
      review: { savedBy: 'dana@demo.test', savedAt: '2026-11-20T09:30:00Z' },
    });
    expect(lines[0]).toBe('Patient: Brown, Tomasz, ID DEM-001, born 1961-04-09');
    expect(lines[3]).toBe(`Reviewed by dana@demo.test on ${new Date('2026-11-20T09:30:00Z').toLocaleString('en-US')}`);
  });
});
