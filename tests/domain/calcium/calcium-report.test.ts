/**
 * The calcium section of the PDF report (issue 28): the score with its components and definition,
 * in the report the clinician downloads and the one sent to PACS (the same code).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { calciumReportSection, wrapText } from '../../../src/domain/calcium/calcium-report.ts';
import { recordCalcium } from '../../../src/domain/calcium/record-calcium.ts';
import type { RecordContours } from '../../../src/domain/contours/api.ts';
import { correctedAnalysis } from '../../../src/domain/contours/corrected-analysis.ts';
import { buildReportPdf } from '../../../src/domain/reports/report-pdf.ts';
import { detectedContours } from '../../web/review/contours/contours-fixture.ts';

const UNICODE_FONT = new Uint8Array(fs.readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
const FIGURES = { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

/** The fixture's contours with 360° calcium on slices 40 to 60 and 90° on 61 to 80. */
function calcified(): RecordContours {
  const contours = detectedContours(120, {});
  return {
    ...contours,
    contours: contours.contours.map((c) =>
      'noBorder' in c ? c : { ...c, calcium: { arcDeg: c.slice >= 40 && c.slice <= 60 ? 360 : c.slice <= 80 && c.slice > 60 ? 90 : 0, startDeg: 0, endDeg: c.slice > 60 && c.slice <= 80 ? 90 : 0, nodule: false } },
    ),
  };
}

describe('the calcium section of the report', () => {
  it('names the slices whose arc was re-read on a corrected border, set by hand, or still on the detected border', () => {
    const calcium = recordCalcium(calcified(), FIGURES.pullbackSpeedMmPerS / FIGURES.frameRateHz, (slice) => slice >= 40 && slice <= 50, {
      remeasured: new Map([40, 41, 42, 45].map((slice) => [slice, { arcDeg: 120, startDeg: 0, endDeg: 120, nodule: false }])),
      byHand: [{ slice: 100, startDeg: 0, arcDeg: 45 }],
    });
    const text = calciumReportSection(calcium).lines.join(' ');
    expect(text).toContain('Arc measured on the lumen border corrected by hand: slices 40–42, 45.');
    expect(text).toContain('Arc set by hand: slices 100.');
    expect(text).toContain('its frame not re-read: not loaded yet): slices 43–44, 46–50.');
  });

  it('says the score, its components and what it rests on', () => {
    const section = calciumReportSection(recordCalcium(calcified(), FIGURES.pullbackSpeedMmPerS / FIGURES.frameRateHz));
    expect(section.lines[0]).toMatch(/^IVUS calcium score [0-4] \/ 4: > 270° over > 5 mm 0, 360° 1, calcified nodule 0, vessel Ø < 3\.5 mm [01]$/);
    expect(section.lines[1]).toMatch(/^Largest arc 360° at slice 40; longest calcium 0\.7 mm;/);
    expect(section.lines.join(' ')).toContain('Zhang et al., Circ Cardiovasc Interv 2021');
    for (const line of section.lines) expect(line.length).toBeLessThanOrEqual(160);
  });

  it('wraps at spaces', () => {
    expect(wrapText('aaa bbb ccc', 7)).toEqual(['aaa bbb', 'ccc']);
  });

  it.skipIf(!hasPdftotext)('is in the PDF report', async () => {
    const manifest = emptyManifest();
    const contours = calcified();
    const bytes = await buildReportPdf(
      {
        patient: { name: 'Brown, Tomasz', patientId: 'DEM-001', birthDate: '1961-04-09' },
        record: { acquiredAt: '2026-01-02T03:04:05Z', modality: 'IVUS', recordId: 'r-1' },
        result: correctedAnalysis(contours, manifest, FIGURES),
        manifest,
        figures: FIGURES,
        madeAt: new Date('2026-11-22T06:00:00Z'),
        sections: [calciumReportSection(recordCalcium(contours, FIGURES.pullbackSpeedMmPerS / FIGURES.frameRateHz))],
      },
      UNICODE_FONT,
    );
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-calcium-')), 'report.pdf');
    fs.writeFileSync(file, bytes);
    const text = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).stdout;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(text).toContain('Calcium');
    expect(text).toMatch(/IVUS calcium score [0-4] \/ 4: > 270° over > 5 mm 0, 360° 1/);
  });
});
