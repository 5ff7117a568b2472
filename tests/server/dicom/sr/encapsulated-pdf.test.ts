/**
 * The report PDF "Send to PACS" stores beside the SR: the server's own PDF (built in the domain, as
 * the browser's download is) in an Encapsulated PDF of the pullback's patient and study, in a series
 * of its own, from which dcmtk and dcmjs both take back exactly the PDF's bytes.
 */
import fs from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { buildReportPdf } from '../../../../src/domain/reports/report-pdf.ts';
import { buildEncapsulatedPdf } from '../../../../src/server/dicom/encapsulated-pdf.ts';
import { reportFont } from '../../../../src/server/dicom/report-font.ts';
import { readPart10 } from '../../../../src/server/dicom/sr/dcmjs.ts';
import { buildMeasurementReport } from '../../../../src/server/dicom/sr/measurement-report.ts';
import { requireTools, run, scratch } from './dcmtk.ts';
import { PULLBACK, review, subject } from './report-fixture.ts';

const hasDcmtk = requireTools('dcmdump', 'dcm2pdf');
const files = scratch();
afterAll(() => files.remove());

const made = review();
const pdf = await buildReportPdf({
  patient: { name: 'Brown, Tomasz', patientId: 'DEM-001' },
  record: { acquiredAt: '2026-05-04T08:00:00Z', modality: 'IVUS', recordId: 'rec-123' },
  result: made.analysis,
  manifest: made.manifest,
  figures: { pixelSpacingMm: made.pixelSpacingMm, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 },
  madeAt: subject().madeAt,
}, await reportFont());
/** The same report one byte longer (a newline after %%EOF, still a PDF): one of the two has odd length and needs padding. */
const longer = new Uint8Array([...pdf, 0x0a]);

/** The Encapsulated Document's bytes as dcmjs reads them, and the length the object declares. */
function encapsulated(bytes: Uint8Array): { document: Uint8Array; declaredLength: number; dataset: Record<string, unknown> } {
  const dataset = readPart10(bytes);
  const value = (dataset.EncapsulatedDocument as ArrayBuffer[])[0]!;
  return { document: new Uint8Array(value), declaredLength: Number(dataset.EncapsulatedDocumentLength), dataset };
}

describe('the report PDF', () => {
  it('is built on the server from the domain: a one-page PDF that pdf-lib reads back', async () => {
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    const document = await PDFDocument.load(pdf);
    expect(document.getPageCount()).toBe(1);
    expect(document.getTitle()).toBe('IVUS pullback report DEM-001');
  });
});

describe('the Encapsulated PDF', () => {
  it.each([
    ['as built', pdf],
    ['one byte longer', longer],
  ])('gives back exactly the PDF %s (padded to even length in the file, declared length exact)', (_name, document) => {
    const built = buildEncapsulatedPdf(subject(), document);
    const read = encapsulated(built.bytes);
    expect(read.document.length % 2).toBe(0);
    expect(read.document.length - document.length).toBe(document.length % 2);
    expect(read.declaredLength).toBe(document.length);
    expect(read.document.subarray(0, read.declaredLength)).toEqual(document);
  });

  it('belongs to the pullback patient and study, in a series of its own apart from the SR and the pullback', () => {
    const built = buildEncapsulatedPdf(subject(), pdf);
    const report = buildMeasurementReport(subject(), made);
    const { dataset } = encapsulated(built.bytes);
    expect(dataset).toMatchObject({
      SOPClassUID: '1.2.840.10008.5.1.4.1.1.104.1',
      SOPInstanceUID: built.sopInstanceUid,
      SeriesInstanceUID: built.seriesInstanceUid,
      StudyInstanceUID: subject().study.studyInstanceUid,
      PatientID: 'DEM-001',
      PatientBirthDate: '19610409',
      PatientSex: 'M',
      Modality: 'DOC',
      MIMETypeOfEncapsulatedDocument: 'application/pdf',
    });
    expect(new Set([built.seriesInstanceUid, report.seriesInstanceUid, PULLBACK.seriesInstanceUid]).size).toBe(3);
    expect(built.sopInstanceUid).toMatch(/^2\.25\.[1-9]\d*$/);
    expect(built.sopInstanceUid.length).toBeLessThanOrEqual(64);
  });

  it.skipIf(!hasDcmtk)('is what dcmtk calls an Encapsulated PDF, and dcm2pdf extracts the PDF byte for byte', async () => {
    for (const [name, document] of [
      ['even', pdf.length % 2 === 0 ? pdf : longer],
      ['odd', pdf.length % 2 === 1 ? pdf : longer],
    ] as const) {
      const file = files.file(`${name}.dcm`, buildEncapsulatedPdf(subject(), document).bytes);
      const dump = await run('dcmdump', [file]);
      expect(dump.stderr).toBe('');
      expect(dump.code).toBe(0);
      expect(dump.stdout).toMatch(/\(0008,0016\) UI =EncapsulatedPDFStorage/);
      expect(dump.stdout).toContain('(0042,0012) LO [application/pdf]');
      expect(dump.stdout).toContain(`(0042,0015) UL ${document.length}`);
      expect(dump.stdout).toContain('(0010,0010) PN [Brown^Tomasz]');
      const extracted = files.file(`${name}.pdf`);
      const out = await run('dcm2pdf', [file, extracted]);
      expect(out.code).toBe(0);
      const bytes = new Uint8Array(fs.readFileSync(extracted));
      expect(new TextDecoder().decode(bytes.subarray(0, 5))).toBe('%PDF-');
      expect(bytes).toEqual(document);
    }
  });
});
