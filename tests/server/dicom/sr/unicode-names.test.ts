/**
 * "Send to PACS" for patients and notes in several scripts (issue 24, item 8): the server's report
 * PDF is made (it was a 500 with a WinAnsi font), and the SR and the Encapsulated PDF declare UTF-8
 * (ISO_IR 192) and carry the names as written, as dcmjs and dcmtk's dsrdump and dcmdump read them.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReportPdf } from '../../../../src/domain/reports/report-pdf.ts';
import { buildEncapsulatedPdf } from '../../../../src/server/dicom/encapsulated-pdf.ts';
import { reportFont } from '../../../../src/server/dicom/report-font.ts';
import { readPart10 } from '../../../../src/server/dicom/sr/dcmjs.ts';
import { buildMeasurementReport } from '../../../../src/server/dicom/sr/measurement-report.ts';
import { readMeasurementReport } from '../../../../src/server/dicom/sr/read-measurement-report.ts';
import { requireTools, run, scratch } from './dcmtk.ts';
import { review, subject } from './report-fixture.ts';

const hasDcmtk = requireTools('dsrdump', 'dcmdump', 'dcm2pdf');
const hasPdftotext = spawnSync('pdftotext', ['-v']).status === 0;
const files = scratch();
afterAll(() => files.remove());

/** Names as the product stores them ("Family, Given") and as DICOM PN writes them. */
const NAMES: [script: string, name: string, pn: string][] = [
  ['Polish', 'Kowalski, Łukasz', 'Kowalski^Łukasz'],
  ['Greek', 'Παπαδόπουλος, Γιώργος', 'Παπαδόπουλος^Γιώργος'],
  ['Cyrillic', 'Иванова, Наталья', 'Иванова^Наталья'],
  ['CJK', '山田, 太郎', '山田^太郎'],
];
const NOTE = 'Lumen ≥ 4.0 mm² — re-check “distal” edge';

/** The DICOM objects a send makes for `name`: the SR and the Encapsulated PDF of the server's own report. */
async function sendObjects(name: string) {
  const made = review(NOTE);
  const pdf = await buildReportPdf(
    {
      patient: { name, patientId: 'DEM-001' },
      record: { acquiredAt: '2026-05-04T08:00:00Z', modality: 'IVUS', recordId: 'rec-123' },
      result: made.analysis,
      manifest: made.manifest,
      figures: { pixelSpacingMm: made.pixelSpacingMm, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 },
      madeAt: subject().madeAt,
    },
    await reportFont(),
  );
  return { pdf, sr: buildMeasurementReport(subject(name), made).bytes, document: buildEncapsulatedPdf(subject(name), pdf).bytes };
}

function personName(value: unknown): string {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : String((first as { Alphabetic?: string }).Alphabetic);
}

describe.each(NAMES)('sending a report for a %s name', (script, name, pn) => {
  it('makes the SR and the Encapsulated PDF, both declaring UTF-8 and naming the patient as written', async () => {
    const { sr, document } = await sendObjects(name);
    for (const bytes of [sr, document]) {
      const dataset = readPart10(bytes);
      expect(dataset.SpecificCharacterSet).toBe('ISO_IR 192');
      expect(personName(dataset.PatientName)).toBe(pn);
    }
    expect(readMeasurementReport(sr).annotations.find((a) => a.kind === 'text')?.text).toBe(NOTE);
  });

  it.skipIf(!hasDcmtk)('is read back by dsrdump and dcmdump with the right characters', async () => {
    const { sr, document } = await sendObjects(name);
    const srDump = await run('dsrdump', ['+U8', '+Pl', files.file(`${script}-sr.dcm`, sr)]);
    expect(srDump.code).toBe(0);
    // dcmtk's VR checker cannot check UTF-8 and says so; it must say nothing else.
    expect(srDump.stderr.split('\n').filter((line) => line && !line.includes('VR checker does not support this Specific Character Set: ISO_IR 192'))).toEqual([]);
    expect(srDump.stdout).toContain(pn);
    expect(srDump.stdout).toContain(NOTE);
    const pdfDump = await run('dcmdump', ['+U8', files.file(`${script}-pdf.dcm`, document)]);
    expect(pdfDump.code).toBe(0);
    expect(pdfDump.stdout).toContain('ISO_IR 192');
    expect(pdfDump.stdout).toContain(`[${pn}]`);
  });

  it.skipIf(!hasPdftotext || script === 'CJK')('stores a PDF whose text shows the name and the note', async () => {
    const { pdf } = await sendObjects(name);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-pdf-')), 'report.pdf');
    fs.writeFileSync(file, pdf);
    const text = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).stdout;
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
    expect(text).toContain(`Patient: ${name}, ID DEM-001`);
    expect(text).toContain(NOTE);
  });
});
