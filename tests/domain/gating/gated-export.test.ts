/**
 * The gated figures in the CSV and the PDF report (issue 28): present, named as gated, only while
 * gating is on and found cycles; the export of all frames is otherwise unchanged.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import type { DetectedContour, RecordContours } from '../../../src/domain/contours/api.ts';
import { correctedAnalysis, measurementsCsv } from '../../../src/domain/contours/corrected-analysis.ts';
import { GATED_FRAMES_CSV_HEADER, GATED_RESULTS_CSV_HEADER, gatedCsvSection, gatedReportSection, gatingToExport } from '../../../src/domain/gating/gated-export.ts';
import { buildReportPdf } from '../../../src/domain/reports/report-pdf.ts';

const UNICODE_FONT = new Uint8Array(fs.readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };
const FIGURES = { pixelSpacingMm: 0.01, ...geometry };
const circle = (radius: number) => Array.from({ length: 16 }, (_, i) => ({ x: 256 + radius * Math.cos((i / 16) * 2 * Math.PI), y: 256 + radius * Math.sin((i / 16) * 2 * Math.PI) }));

/** A pullback whose lumen shrinks in systole: every 20th frame (end-diastole) shows the true lumen, the others up to 1 mm² less. */
function beatingContours(count: number): RecordContours {
  const contours = Array.from({ length: count }, (_, i): DetectedContour => {
    const anatomical = 6 - 2 * Math.exp(-(((i - 100) / 30) ** 2));
    const systolic = i % 20 === 0 ? 0 : Math.sin((Math.PI * (i % 20)) / 20);
    const areaMm2 = anatomical - systolic;
    return { slice: i + 1, controlPoints: circle(100), areaMm2, minDiameterMm: 2, maxDiameterMm: 3, eccentricity: 1 / 3, vessel: { controlPoints: circle(200), areaMm2: 12 }, plaqueAreaMm2: 12 - areaMm2, plaqueBurden: (12 - areaMm2) / 12, confidence: 0.9 };
  });
  return { version: 'v1', frameCount: count, pixelSpacingMm: 0.01, contours, mla: null, references: { proximal: null, distal: null }, stenosisPercent: null, maxPlaqueBurden: null, lowConfidenceSlices: [] };
}

const all = correctedAnalysis(beatingContours(200), emptyManifest(), geometry);
const endDiastolicFrames = Array.from({ length: 10 }, (_, k) => 20 * k);
const gatedResult = { kind: 'gated' as const, endDiastolicFrames, cycleFrames: 20, heartRateBpm: 90, periodicity: 0.9 };

/** The export as pullback-analysis.tsx assembles it: the per-slice table, then the gated section if any. */
function exportCsv(gating: Parameters<typeof gatingToExport>[0]): string {
  const gated = gatingToExport(gating);
  return measurementsCsv(all) + (gated ? gatedCsvSection(all, gated, geometry) : '');
}

describe('gated figures in the CSV export', () => {
  it('adds the gated frames and the gated results after the per-slice table when gating is on', () => {
    const csv = exportCsv({ on: true, result: gatedResult });
    expect(csv.startsWith(measurementsCsv(all))).toBe(true);
    const tables = csv.slice(measurementsCsv(all).length).split('\r\n\r\n').map((t) => t.trim().split('\r\n'));
    const [frames, results] = tables.slice(-2);
    expect(frames![0]).toBe(GATED_FRAMES_CSV_HEADER.join(','));
    // One row per end-diastolic frame, 1-based slices, with the areas of the per-slice table.
    expect(frames!.slice(1).map((row) => Number(row.split(',')[0]))).toEqual(endDiastolicFrames.map((f) => f + 1));
    expect(frames![6]).toBe(`101,1.667,4.00,12.00,66.7`);
    expect(results![0]).toBe(GATED_RESULTS_CSV_HEADER.join(','));
    // The gated MLA is the end-diastolic frame 101, not a systolic frame (below 3.5 mm² on all frames).
    expect(all.analysis.mla!.areaMm2).toBeLessThan(3.5);
    expect(results).toContain('gated_mla,4.00,mm2,101,1.667');
    expect(results!.find((r) => r.startsWith('gated_heart_rate,'))).toBe('gated_heart_rate,90,bpm,,');
    expect(results!.find((r) => r.startsWith('gated_area_stenosis,'))).toMatch(/^gated_area_stenosis,\d+\.\d,%,,$/);
    expect(results!.find((r) => r.startsWith('gated_lesion_length,'))).toMatch(/^gated_lesion_length,\d+\.\d\d,mm,,$/);
    expect(results!.find((r) => r.startsWith('gated_distal_reference,'))).toMatch(/^gated_distal_reference,\d+\.\d\d,mm2,(81|61|41|21|1),/);
    expect(results!.some((r) => r.startsWith('gated_method,"Image-based gating (no ECG)'))).toBe(true);
  });

  it('is unchanged when gating is off, has found no cycle, or is not there', () => {
    const plain = measurementsCsv(all);
    expect(exportCsv({ on: false, result: gatedResult })).toBe(plain);
    expect(exportCsv({ on: true, result: { kind: 'no-cycle', reason: 'fewer than two cardiac cycles were found' } })).toBe(plain);
    expect(exportCsv({ on: true, result: null })).toBe(plain);
    expect(exportCsv(null)).toBe(plain);
  });
});

describe('gated figures in the PDF report', () => {
  it('names the gated results and how they were computed', () => {
    const section = gatedReportSection(all, gatedResult, geometry);
    expect(section.heading).toBe('Gated analysis');
    expect(section.lines[0]).toBe('10 gated frames (end-diastole), heart rate 90 bpm');
    expect(section.lines[1]).toBe('Gated MLA 4.00 mm² at slice 101 (1.7 mm)');
    for (const line of section.lines) expect(line.length).toBeLessThanOrEqual(120);
  });

  it.skipIf(!hasPdftotext)('is a section of the report when gating is on, and absent when off', async () => {
    const manifest = emptyManifest();
    const pdfText = async (gating: Parameters<typeof gatingToExport>[0]) => {
      const gated = gatingToExport(gating);
      const bytes = await buildReportPdf(
        {
          patient: { name: 'Brown, Tomasz', patientId: 'DEM-001', birthDate: '1961-04-09' },
          record: { acquiredAt: '2026-01-02T03:04:05Z', modality: 'IVUS', recordId: 'r-1' },
          result: all,
          manifest,
          figures: FIGURES,
          madeAt: new Date('2026-11-22T06:00:00Z'),
          sections: gated ? [gatedReportSection(all, gated, geometry)] : [],
        },
        UNICODE_FONT,
      );
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-gated-')), 'report.pdf');
      fs.writeFileSync(file, bytes);
      const text = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).stdout;
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
      return text;
    };
    const on = await pdfText({ on: true, result: gatedResult });
    expect(on).toContain('Gated analysis');
    expect(on).toContain('Gated MLA 4.00 mm² at slice 101');
    expect(on).toContain('heart rate 90 bpm');
    const off = await pdfText({ on: false, result: gatedResult });
    expect(off).not.toContain('Gated');
  });
});
