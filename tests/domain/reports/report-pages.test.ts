/**
 * The report a cardiologist signs lists every saved measurement (issue 26): a long list goes on to
 * more pages instead of ending in "... and more", and every page says which of how many it is.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { newRuler } from '../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../src/domain/annotations/edits.ts';
import { emptyManifest, type AnnotationManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { buildReportPdf } from '../../../src/domain/reports/report-pdf.ts';
import { detectedContours } from '../../web/review/contours/contours-fixture.ts';

const UNICODE_FONT = new Uint8Array(fs.readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
const FIGURES = { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

function withRulers(count: number): AnnotationManifest {
  let manifest = emptyManifest();
  for (let k = 1; k <= count; k++) manifest = addAnnotation(manifest, newRuler(manifest, k, { x: 0, y: 0 }, { x: 100 + k, y: 0 }));
  return manifest;
}

function report(manifest: AnnotationManifest): Promise<Uint8Array> {
  return buildReportPdf(
    {
      patient: { name: 'Brown, Tomasz', patientId: 'DEM-001', birthDate: '1961-04-09' },
      record: { acquiredAt: '2026-01-02T03:04:05Z', modality: 'IVUS', recordId: 'r-1' },
      result: correctedAnalysis(detectedContours(120, {}), manifest, FIGURES),
      manifest,
      figures: FIGURES,
      madeAt: new Date('2026-11-22T06:00:00Z'),
      review: { savedBy: 'dana@demo.test', savedAt: '2026-11-21T08:00:00Z' },
    },
    UNICODE_FONT,
  );
}

describe('the report with many measurements', () => {
  it('stays on one page with a few, and goes on to more pages with many', async () => {
    expect((await PDFDocument.load(await report(withRulers(3)))).getPageCount()).toBe(1);
    expect((await PDFDocument.load(await report(withRulers(100)))).getPageCount()).toBeGreaterThan(1);
  });

  it.skipIf(!hasPdftotext)('lists every measurement, the last one included, with the patient, birth date and reviewer', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-pages-')), 'report.pdf');
    fs.writeFileSync(file, await report(withRulers(100)));
    const text = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).stdout;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(text).toContain('Patient: Brown, Tomasz, ID DEM-001, born 1961-04-09');
    expect(text).toContain('Reviewed by dana@demo.test');
    expect(text).toContain('Annotations (continued)');
    expect(text).not.toContain('and more');
    // The 100th ruler (200 px at 0.01 mm/px) is in the report.
    expect(text).toMatch(/Slice 100\s+A\s+Ruler\s+2\.00 mm/);
    expect(text).toMatch(/page 1 of [2-9]/);
  });
});
