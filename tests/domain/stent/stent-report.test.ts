/**
 * Issue 28: the stent section of the PDF report: the segment, MSA and its slice, expansion against
 * both references, malapposed regions, edge plaque burden, flags, hand-corrected slices, and how
 * each is computed; in the PDF the clinician downloads.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { buildReportPdf } from '../../../src/domain/reports/report-pdf.ts';
import { detectStent, stentFigures } from '../../../src/domain/stent/stent-analysis.ts';
import { stentReportSection } from '../../../src/domain/stent/stent-report.ts';
import { STENT_FLAG_TEXT, stentResults } from '../../../src/domain/stent/stent-results.ts';
import { detectedContours } from '../../web/review/contours/contours-fixture.ts';
import { nativeReading, stentReading } from './stent-fixtures.ts';

const UNICODE_FONT = new Uint8Array(fs.readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
const FIGURES = { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

/** 60 frames at 10 frames/mm: a stent on frames 20-39 (about 8 mm²), malapposed over 60° on frames 30-35; references of 12 mm², 55 % plaque burden at frame 17. */
const readings = Array.from({ length: 60 }, (_, f) =>
  f >= 20 && f < 40 ? stentReading(1.6, f >= 30 && f <= 35 ? { from: 200, to: 260, gapMm: 0.7 } : undefined, 0.2 * f) : nativeReading(1.7),
);
const lumen = readings.map((_, f) => (f === 5 ? 12.5 : 12));
const vessel = readings.map((_, f) => (f === 17 ? 12 / 0.45 : 18));
const detection = detectStent(readings, 10);
const results = stentResults(detection);
const figures = stentFigures(detection, { frameCount: 60, framesPerMm: 10, lumenAreasMm2: lumen, vesselAreasMm2: vessel });

describe('the stent section of the report', () => {
  it('gives the segment, MSA, expansion against both references, malapposition, edge burden, flags and corrected slices', () => {
    const section = stentReportSection(results, figures, [18, 19]);
    // Lines are wrapped at spaces for the PDF: read them as one text.
    const text = section.lines.join(' ');
    expect(section.heading).toBe('Stent');
    expect(text).toContain('distal edge slice 21, proximal edge slice 40');
    expect(text).toContain(`MSA ${results.msa!.areaMm2.toFixed(2)} mm² at slice ${results.msa!.slice}`);
    expect(text).toMatch(/Expansion \d+ % of the mean reference, \d+ % of the distal \(distal reference 12\.50 mm² at slice 6; proximal reference 12\.00 mm² at slice \d+\)/);
    expect(text).toMatch(/Malapposition: slices 31–36 \(0\.\d mm, widest arc \d+° at slice \d+\)/);
    expect(text).toContain('Max plaque burden within 5 mm of each edge: distal 55 % at slice 18');
    expect(text).toContain(STENT_FLAG_TEXT['expansion-below-80-mean']);
    expect(text).toContain(STENT_FLAG_TEXT['edge-burden-distal']);
    expect(text).toContain(STENT_FLAG_TEXT.malapposition);
    expect(text).toContain('corrected by hand on slices 18, 19');
    expect(text).toContain('more than 0.4 mm beyond the stent border');
    for (const line of section.lines) expect(line.length).toBeLessThanOrEqual(160);
  });

  it('says "not measurable" where the lumen and vessel borders are missing, and flags nothing it could not measure', () => {
    const section = stentReportSection(results, stentFigures(detection, { frameCount: 60, framesPerMm: 10 }), []);
    const text = section.lines.join(' ');
    expect(text).toContain('Expansion not measurable of the mean reference');
    expect(text).toContain('distal not measurable; proximal not measurable');
    expect(text).not.toContain(STENT_FLAG_TEXT['expansion-below-80-mean']);
    expect(text).toContain('No lumen or vessel border corrected by hand.');
  });

  it('says when no stent was found', () => {
    const none = detectStent(readings.map(() => nativeReading(1.7)), 10);
    expect(stentReportSection(stentResults(none), stentFigures(none, { frameCount: 60, framesPerMm: 10 }), []).lines).toEqual([
      'No stent found in the frames read (no run of frames with steady struts).',
    ]);
  });

  it.skipIf(!hasPdftotext)('is in the PDF report', async () => {
    const manifest = emptyManifest();
    const bytes = await buildReportPdf(
      {
        patient: { name: 'Brown, Tomasz', patientId: 'DEM-001', birthDate: '1961-04-09' },
        record: { acquiredAt: '2026-01-02T03:04:05Z', modality: 'IVUS', recordId: 'r-1' },
        result: correctedAnalysis(detectedContours(60, {}), manifest, FIGURES),
        manifest,
        figures: FIGURES,
        madeAt: new Date('2026-11-22T06:00:00Z'),
        sections: [stentReportSection(results, figures, [18])],
      },
      UNICODE_FONT,
    );
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-stent-')), 'report.pdf');
    fs.writeFileSync(file, bytes);
    const text = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).stdout;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(text).toContain('Stent');
    expect(text).toContain(`MSA ${results.msa!.areaMm2.toFixed(2)} mm² at slice ${results.msa!.slice}`);
    expect(text).toContain('Malapposition: slices 31–36');
    expect(text).toContain('Under-expanded');
  });
});
