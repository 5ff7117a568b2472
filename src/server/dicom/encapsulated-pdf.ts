/**
 * The one-page pullback report (domain/reports/report-pdf.ts) as a DICOM Encapsulated PDF
 * (1.2.840.10008.5.1.4.1.1.104.1, PS3.3 A.45.1) for "Send to PACS": the pullback's patient and
 * study, a series of its own, the PDF's bytes in Encapsulated Document (0042,0011).
 *
 * OB values have even length, so a PDF of odd length is padded with one 0x00 byte; Encapsulated
 * Document Length (0042,0015) keeps the document's own length, so a reader can take the exact
 * bytes back (PDF readers ignore bytes after %%EOF in any case).
 */
import { newUid, writePart10, type Naturalized } from './sr/dcmjs.ts';
import { documentAttributes, utcDateTime, withCharacterSet, type BuiltDicomObject, type ReportSubject } from './sr/document.ts';

export const ENCAPSULATED_PDF = '1.2.840.10008.5.1.4.1.1.104.1';
export const REPORT_PDF_SERIES_NUMBER = 9902;
export const REPORT_DOCUMENT_TITLE = 'IVUS pullback report';

/** The PDF's bytes padded to even length for the OB value. */
function evenLength(pdf: Uint8Array): ArrayBuffer {
  const padded = new Uint8Array(pdf.length + (pdf.length % 2));
  padded.set(pdf);
  return padded.buffer;
}

export function buildEncapsulatedPdf(subject: ReportSubject, pdf: Uint8Array): BuiltDicomObject {
  const sopInstanceUid = newUid();
  const seriesInstanceUid = newUid();
  const { date, time } = utcDateTime(subject.madeAt);
  const dataset: Naturalized = {
    ...documentAttributes(subject, {
      sopClassUid: ENCAPSULATED_PDF,
      sopInstanceUid,
      seriesInstanceUid,
      // Encapsulated Document Series: DOC is the modality of documents.
      modality: 'DOC',
      seriesNumber: REPORT_PDF_SERIES_NUMBER,
      seriesDescription: 'IVUS Review report',
    }),
    // SC Equipment: a workstation made the document, not an acquisition device.
    ConversionType: 'WSD',
    AcquisitionDateTime: `${date}${time}`,
    // The page names the patient, so the document carries identifying text.
    BurnedInAnnotation: 'YES',
    DocumentTitle: REPORT_DOCUMENT_TITLE,
    ConceptNameCodeSequence: [],
    MIMETypeOfEncapsulatedDocument: 'application/pdf',
    EncapsulatedDocument: [evenLength(pdf)],
    EncapsulatedDocumentLength: pdf.length,
  };
  return { bytes: writePart10(withCharacterSet(dataset)), sopInstanceUid, seriesInstanceUid };
}
