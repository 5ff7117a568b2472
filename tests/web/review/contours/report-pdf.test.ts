import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { newRuler } from '../../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { buildReportPdf } from '../../../../src/web/review/contours/report-pdf.ts';

describe('pullback report', () => {
  it('is a one-page PDF titled with the patient', async () => {
    const contours = Array.from({ length: 50 }, (_, i) => ({
      slice: i + 1,
      controlPoints: [{ x: 0, y: 0 }, { x: 10, y: 0 }, { x: 0, y: 10 }],
      areaMm2: 5 + Math.sin(i / 5),
      minDiameterMm: 2,
      maxDiameterMm: 3,
    }));
    const detected = { version: 'v1', frameCount: 50, pixelSpacingMm: 0.01, contours, mla: null, references: { proximal: null, distal: null }, stenosisPercent: null };
    const manifest = addAnnotation(emptyManifest(), newRuler(emptyManifest(), 3, { x: 0, y: 0 }, { x: 100, y: 0 }));
    const bytes = await buildReportPdf({
      patient: { name: 'Brown, Tomasz', patientId: 'DEM-001' },
      record: { acquiredAt: '2025-12-25T10:00:00Z', modality: 'IVUS', recordId: 'r-1' },
      result: correctedAnalysis(detected, manifest, { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 }),
      manifest,
      pixelSpacingMm: 0.01,
      madeAt: new Date('2026-11-22T06:00:00Z'),
    });
    const pdf = await PDFDocument.load(bytes);
    expect(pdf.getPageCount()).toBe(1);
    expect(pdf.getTitle()).toBe('IVUS pullback report DEM-001');
  });
});
