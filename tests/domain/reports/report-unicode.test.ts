/**
 * Ordinary names and notes in the report (issue 24, item 8): "Kowalski, Łukasz", a note with "≥",
 * Greek, Cyrillic and CJK names make a PDF (they were a 500 with the WinAnsi standard font), the
 * text poppler extracts is the name as written, a character the font lacks is a visible
 * replacement mark, and the CSV download is UTF-8 behind a byte order mark.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { newText } from '../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis, measurementsCsv } from '../../../src/domain/contours/corrected-analysis.ts';
import { csvFileText } from '../../../src/domain/reports/csv-file.ts';
import { buildReportPdf } from '../../../src/domain/reports/report-pdf.ts';
import { drawableText } from '../../../src/domain/reports/report-text.ts';
import { detectedContours } from '../../web/review/contours/contours-fixture.ts';

const UNICODE_FONT = new Uint8Array(fs.readFileSync(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf')));
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
if (!hasPdftotext) console.warn('pdftotext is not installed: the report text checks are skipped (apt-get install poppler-utils).');

const NAMES = {
  polish: 'Kowalski, Łukasz',
  greek: 'Παπαδόπουλος, Γιώργος',
  cyrillic: 'Иванова, Наталья',
  vietnamese: 'Nguyễn, Thị Ánh',
  cjk: '山田, 太郎',
};
const NOTE = 'Lumen ≥ 4.0 mm² — calcium ∠ 270° ± 10°, “check”';

function report(name: string, note = NOTE): Promise<Uint8Array> {
  const manifest = addAnnotation(emptyManifest(), { ...newText(emptyManifest(), 5, { x: 10, y: 10 }), text: note });
  return buildReportPdf(
    {
      patient: { name, patientId: 'DEM-042' },
      record: { acquiredAt: '2026-01-02T03:04:05Z', modality: 'IVUS', recordId: 'r-42' },
      result: correctedAnalysis(detectedContours(30, {}), manifest, { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 }),
      manifest,
      figures: { pixelSpacingMm: 0.01, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 },
      madeAt: new Date('2026-11-22T06:00:00Z'),
    },
    UNICODE_FONT,
  );
}

/** The PDF's text as poppler extracts it. */
function pdfText(bytes: Uint8Array): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-report-')), 'report.pdf');
  fs.writeFileSync(file, bytes);
  const result = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  expect(result.status).toBe(0);
  return result.stdout;
}

describe('the report with names and notes from several scripts', () => {
  it.each(Object.entries(NAMES))('is made for a %s name', async (_script, name) => {
    const pdf = await PDFDocument.load(await report(name));
    expect(pdf.getPageCount()).toBe(1);
  });

  it.skipIf(!hasPdftotext)('shows Latin, Greek, Cyrillic and Vietnamese names and the note as written', async () => {
    for (const name of [NAMES.polish, NAMES.greek, NAMES.cyrillic, NAMES.vietnamese]) {
      const text = pdfText(await report(name));
      expect(text).toContain(`Patient: ${name}, ID DEM-042`);
      expect(text).toContain(NOTE);
    }
  });

  it.skipIf(!hasPdftotext)('marks the characters its font lacks (CJK) visibly, the rest of the line as written', async () => {
    const text = pdfText(await report(NAMES.cjk));
    expect(text).toContain('Patient: ��, ��, ID DEM-042');
  });

  it('survives a note with line breaks, tabs, NUL and a lone surrogate', async () => {
    await expect(report(NAMES.polish, 'first line\nsecond\tline\u0000 \ud800 end')).resolves.toBeInstanceOf(Uint8Array);
  });
});

describe('text as the font can draw it', () => {
  const covered = new Set([...'Kowalski, Łukasz ≥?Zoë'].map((c) => c.codePointAt(0)!).concat(0xfffd));

  it('keeps what the font covers, composes decomposed letters, and spaces out control characters', () => {
    expect(drawableText('Kowalski, Łukasz', covered)).toBe('Kowalski, Łukasz');
    expect(drawableText('Kowalski,\tZoe\u0308', covered)).toBe('Kowalski, Zoë');
    expect(drawableText('a\u202fb\u0000', new Set([0x61, 0x62, 0x20]))).toBe('a b ');
  });

  it('draws a lacked character as U+FFFD where the font has it, else as "?"', () => {
    expect(drawableText('Łu 山 \ud800', covered)).toBe('Łu \ufffd \ufffd');
    expect(drawableText('a山', new Set([0x61, 0x3f]))).toBe('a?');
  });
});

describe('the CSV download', () => {
  it('is UTF-8 behind a byte order mark, so spreadsheets read mm² and names as written', () => {
    const csv = measurementsCsv(correctedAnalysis(detectedContours(5, {}), emptyManifest(), { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 }));
    const bytes = new TextEncoder().encode(csvFileText(`${csv}Łukasz,≥\r\n`));
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder().decode(bytes.subarray(3))).toBe(`${csv}Łukasz,≥\r\n`);
  });
});
