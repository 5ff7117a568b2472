/**
 * Reads and checks one uploaded DICOM file without loading it: the header region is parsed with
 * dicom-parser (growing the read window until the pixel data element is reached), then the pixel
 * data is located by offset. For encapsulated syntaxes the fragment items are walked with small
 * reads and every frame's start is checked (JPEG frame size, RLE segment count). Anything that
 * makes the file unusable is an ImportRejection naming the file.
 */
import fs from 'node:fs';
import dicomParser, { type DataSet } from 'dicom-parser';
import { PATIENT_ID_PATTERN } from '../../domain/records.ts';
import { classifyUltrasound, type UltrasoundClassification } from './ultrasound-kind.ts';
import { acquisitionTime, frameRate, isoDate, personName, pixelSpacing, positive, seriesDescriptionText, str, textDecoderOf, textOf, type PixelSpacingSource } from './attributes.ts';
import { checkElementBudget, checkPixelBudget, DEFAULT_IMPORT_BUDGETS, type ImportBudgets } from './budgets.ts';
import { inflateDeflatedFile } from './deflated.ts';
import { misorderedElement } from './element-order.ts';
import { pixelFormat } from './image-pixel-module.ts';
import { ACCEPTED_SYNTAXES_TEXT, ACCEPTED_TRANSFER_SYNTAXES, DEFLATED_EXPLICIT_LITTLE_ENDIAN, EXPLICIT_LITTLE_ENDIAN, OTHER_TRANSFER_SYNTAXES } from './transfer-syntaxes.ts';
import { rejectFile } from '../../domain/import-rejection.ts';
import type { FrameLocation, PixelFormat } from '../../domain/pixels/pixel-format.ts';
import { locateFrames, readExactly } from './pixel-data-location.ts';

export type DicomSeriesKind = 'bmode' | 'angio';

const SOP_CLASSES: Record<string, { kind: DicomSeriesKind; name: string }> = {
  '1.2.840.10008.5.1.4.1.1.3.1': { kind: 'bmode', name: 'Ultrasound Multi-frame Image' },
  '1.2.840.10008.5.1.4.1.1.3': { kind: 'bmode', name: 'Ultrasound Multi-frame Image (retired)' },
  '1.2.840.10008.5.1.4.1.1.12.1': { kind: 'angio', name: 'X-Ray Angiographic Image' },
  '1.2.840.10008.5.1.4.1.1.12.1.1': { kind: 'angio', name: 'Enhanced X-Ray Angiographic Image' },
};

/** What the objects a study folder also holds are, so a skipped file says it in words. */
const OTHER_OBJECTS: [RegExp, string][] = [
  [/^1\.2\.840\.10008\.1\.3\.10$/, 'a DICOMDIR (the index of a study folder)'],
  [/^1\.2\.840\.10008\.5\.1\.4\.1\.1\.88\./, 'a structured report'],
  [/^1\.2\.840\.10008\.5\.1\.4\.1\.1\.7(\.|$)/, 'a secondary capture'],
  [/^1\.2\.840\.10008\.5\.1\.4\.1\.1\.104\./, 'an encapsulated document'],
  [/^1\.2\.840\.10008\.5\.1\.4\.1\.1\.6\./, 'a single-frame ultrasound image'],
  [/^1\.2\.840\.10008\.5\.1\.4\.1\.1\.11\./, 'a presentation state'],
  [/^1\.2\.840\.10008\.5\.1\.4\.1\.1\.(1|1\.1|12\.2)$/, 'a radiograph'],
];

function otherObjectName(sopClassUid: string): string {
  const known = OTHER_OBJECTS.find(([pattern]) => pattern.test(sopClassUid));
  return known ? `${known[1]} (${sopClassUid})` : `a DICOM object of class ${sopClassUid || '(none)'}`;
}

const PIXEL_DATA = 'x7fe00010';
const FIRST_WINDOW = 256 * 1024;
/** Real headers, even enhanced XA runs with per-frame groups, stay far below this. */
const MAX_HEADER_BYTES = 64 * 1024 * 1024;
const MAX_FRAMES = 200_000;

export interface DicomPatient {
  /** Null when the file has no usable Patient ID (absent, empty, or not PATIENT_ID_PATTERN). */
  readonly id: string | null;
  /** The Patient ID as written, for messages (may be empty). */
  readonly rawId: string;
  readonly name: string;
  readonly birthDate: string | null;
  readonly sex: 'F' | 'M' | 'O' | 'U';
}

export interface DicomFile {
  readonly fileName: string;
  readonly filePath: string;
  readonly fileSize: number;
  readonly kind: DicomSeriesKind;
  readonly sopClassUid: string;
  readonly sopInstanceUid: string;
  readonly modality: string;
  readonly transferSyntaxUid: string;
  readonly studyInstanceUid: string;
  readonly seriesInstanceUid: string;
  readonly patient: DicomPatient;
  readonly acquiredAt: Date | null;
  readonly frameCount: number;
  readonly format: PixelFormat;
  /** Where each frame's bytes are in the file. */
  readonly frames: readonly FrameLocation[];
  readonly frameRateHz: number | null;
  readonly pixelSpacingMm: number | null;
  readonly pixelSpacingSource: PixelSpacingSource | null;
  readonly pullbackSpeedMmPerS: number | null;
  /** For an ultrasound series, whether its header makes it an IVUS pullback and why (ultrasound-kind.ts); null for an angiography run. */
  readonly ultrasound: UltrasoundClassification | null;
  /** Series Description (0008,103E), what the console or technologist named the run ("LAD pre-PCI"), or null. */
  readonly seriesDescription: string | null;
}

function errorText(error: unknown): string {
  const inner = typeof error === 'object' && error !== null && 'exception' in error ? (error as { exception: unknown }).exception : error;
  return inner instanceof Error ? inner.message : String(inner);
}

const RAN_OUT = /past end|overread|overrun|cannot be greater than|buffer/i;


/** Thrown by the synchronous reader for a deflated file, which readDicomUpload inflates first. */
class DeflatedFile extends Error {}

/** The header region parsed up to (and including) the pixel data element's own header. */
function parseHeader(fd: number, fileSize: number, fileName: string): { dataSet: DataSet; transferSyntaxUid: string } {
  if (fileSize < 132) throw rejectFile('not_dicom', fileName, 'the file is too short to be a DICOM file.');
  for (let window = Math.min(fileSize, FIRST_WINDOW); ; window = Math.min(fileSize, window * 2)) {
    const whole = window === fileSize;
    const bytes = readExactly(fd, 0, window);
    if (bytes.length < window) throw rejectFile('truncated', fileName, 'the file could not be read to its end.');
    if (bytes.toString('latin1', 128, 132) !== 'DICM') {
      throw rejectFile('not_dicom', fileName, 'the file is not a DICOM file (no "DICM" marker after the 128-byte preamble).');
    }
    let meta: DataSet;
    try {
      meta = dicomParser.readPart10Header(bytes);
    } catch (error) {
      if (!whole) continue;
      throw rejectFile('truncated', fileName, `the file ends inside its DICOM meta header (${errorText(error)}).`);
    }
    const transferSyntaxUid = (meta.string('x00020010') ?? '').replace(/\0/g, '').trim();
    if (!ACCEPTED_TRANSFER_SYNTAXES[transferSyntaxUid]) {
      const name = OTHER_TRANSFER_SYNTAXES[transferSyntaxUid];
      throw rejectFile(
        'unsupported_transfer_syntax',
        fileName,
        `its transfer syntax ${name ? `${name} (${transferSyntaxUid})` : transferSyntaxUid || '(none given)'} is not supported; ` +
          `accepted: ${ACCEPTED_SYNTAXES_TEXT}.`,
      );
    }
    // Inflated (streaming, within the budgets) by readDicomUpload before the header is read.
    if (transferSyntaxUid === DEFLATED_EXPLICIT_LITTLE_ENDIAN) throw new DeflatedFile();
    let dataSet: DataSet;
    try {
      dataSet = dicomParser.parseDicom(bytes, { untilTag: PIXEL_DATA });
    } catch (error) {
      const text = errorText(error);
      if (!whole) {
        if (window >= MAX_HEADER_BYTES) throw rejectFile('over_budget', fileName, `its header is larger than ${MAX_HEADER_BYTES / 1024 ** 2} MiB.`);
        continue;
      }
      if (RAN_OUT.test(text)) throw rejectFile('truncated', fileName, `the file ends inside its DICOM header (${text}).`);
      throw rejectFile('not_dicom', fileName, `its DICOM header cannot be read (${text}).`);
    }
    if (!dataSet.elements[PIXEL_DATA] && !whole) {
      if (window >= MAX_HEADER_BYTES) throw rejectFile('over_budget', fileName, `it has no pixel data within its first ${MAX_HEADER_BYTES / 1024 ** 2} MiB.`);
      continue;
    }
    if (!dataSet.elements[PIXEL_DATA]) {
      const overrun = Object.values(dataSet.elements).some((e) => e.length !== 0xffffffff && e.dataOffset + e.length > fileSize);
      if (overrun) throw rejectFile('truncated', fileName, 'the file ends inside its DICOM header.');
    }
    return { dataSet, transferSyntaxUid };
  }
}

/**
 * What the header says the file is, refused at once when it is not an image this product reads or
 * its pixel data would not fit the budgets: checked before any pixel data is read (or inflated).
 */
function checkHeader(dataSet: DataSet, transferSyntaxUid: string, fileName: string, budgets: ImportBudgets) {
  checkElementBudget(dataSet, budgets, fileName);
  const sopClassUid = str(dataSet, 'x00080016') || str(dataSet, 'x00020002');
  const modality = str(dataSet, 'x00080060').toUpperCase();
  const sopClass = SOP_CLASSES[sopClassUid];
  if (!sopClass || (sopClass.kind === 'bmode' && modality !== 'IVUS' && modality !== 'US')) {
    throw rejectFile(
      'unsupported_object',
      fileName,
      `it is ${sopClass ? `an ${sopClass.name} of modality ${modality || '(none)'}` : otherObjectName(sopClassUid)}` +
        ', not an IVUS/ultrasound multi-frame image nor an X-ray angiography run.',
    );
  }
  const frameCountText = str(dataSet, 'x00280008');
  const frameCount = frameCountText === '' ? 1 : Number(frameCountText);
  if (!Number.isInteger(frameCount) || frameCount < 0) throw rejectFile('inconsistent_frames', fileName, `its Number of Frames (${frameCountText}) is not a number.`);
  if (frameCount === 0) throw rejectFile('zero_frames', fileName, 'its Number of Frames is 0.');
  if (frameCount > MAX_FRAMES) throw rejectFile('unsupported_object', fileName, `it has ${frameCount} frames (at most ${MAX_FRAMES} are accepted).`);
  const format = pixelFormat(dataSet, ACCEPTED_TRANSFER_SYNTAXES[transferSyntaxUid]!.encoding, fileName);
  // Before anything of the pixel data is read: what the header announces must fit the budget.
  checkPixelBudget(format, frameCount, budgets, fileName);
  return { sopClass, sopClassUid, modality, frameCount, format };
}

/**
 * Reads and checks one file; throws DeflatedFile for a deflated one. `inflatedFrom` names the
 * deflated upload this file was inflated from: its transfer syntax and size are the ones reported.
 */
function readChecked(
  filePath: string,
  fileName: string,
  budgets: ImportBudgets,
  inflatedFrom: { transferSyntaxUid: string; fileSize: number } | null,
): DicomFile {
  const fd = fs.openSync(filePath, 'r');
  try {
    const fileSize = fs.fstatSync(fd).size;
    const { dataSet, transferSyntaxUid } = parseHeader(fd, fileSize, fileName);
    const { sopClass, sopClassUid, modality, frameCount, format } = checkHeader(dataSet, transferSyntaxUid, fileName, budgets);
    const decoder = textDecoderOf(dataSet);
    const pixelData = dataSet.elements[PIXEL_DATA];
    if (!pixelData) throw rejectFile('zero_frames', fileName, 'it holds no pixel data.');
    const frames = locateFrames(fd, fileSize, pixelData, format, frameCount, budgets.maxFragments, fileName);

    // A missing or unusable Patient ID is not a refusal: the uploader names the patient (import-plan.ts).
    const rawPatientId = textOf(dataSet, 'x00100020', decoder);
    const patientId = PATIENT_ID_PATTERN.test(rawPatientId) ? rawPatientId : null;
    const studyInstanceUid = str(dataSet, 'x0020000d');
    const seriesInstanceUid = str(dataSet, 'x0020000e');
    if (!studyInstanceUid || !seriesInstanceUid) {
      throw rejectFile('unsupported_object', fileName, 'it has no Study or Series Instance UID.');
    }
    const sex = str(dataSet, 'x00100040').toUpperCase();
    const spacing = pixelSpacing(dataSet);
    return {
      fileName,
      // Frames are read from the inflated copy of a deflated file.
      filePath,
      fileSize: inflatedFrom?.fileSize ?? fileSize,
      kind: sopClass.kind,
      sopClassUid,
      sopInstanceUid: str(dataSet, 'x00080018'),
      modality,
      transferSyntaxUid: inflatedFrom?.transferSyntaxUid ?? transferSyntaxUid,
      studyInstanceUid,
      seriesInstanceUid,
      patient: {
        id: patientId,
        rawId: rawPatientId,
        name: personName(textOf(dataSet, 'x00100010', decoder)),
        birthDate: isoDate(str(dataSet, 'x00100030')),
        sex: sex === 'F' || sex === 'M' || sex === 'O' ? sex : 'U',
      },
      acquiredAt: acquisitionTime(dataSet),
      frameCount,
      format,
      frames,
      frameRateHz: frameRate(dataSet),
      pixelSpacingMm: spacing?.mm ?? null,
      pixelSpacingSource: spacing?.source ?? null,
      pullbackSpeedMmPerS: positive(dataSet.floatString('x00183101')),
      seriesDescription: seriesDescriptionText(textOf(dataSet, 'x0008103e', decoder)),
      ultrasound: sopClass.kind === 'bmode' ? classifyUltrasound(dataSet, modality) : null,
    };
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads and checks one file that is not deflated (see the module comment; readDicomUpload reads any). */
export function readDicomFile(filePath: string, fileName: string, budgets: ImportBudgets = DEFAULT_IMPORT_BUDGETS): DicomFile {
  try {
    return readChecked(filePath, fileName, budgets, null);
  } catch (error) {
    if (error instanceof DeflatedFile) throw rejectFile('unsupported_transfer_syntax', fileName, 'a deflated file must be inflated before it is read (readDicomUpload).');
    throw error;
  }
}

/**
 * Reads and checks one uploaded file. A deflated one is first inflated beside the upload
 * (`<upload>.inflated.dcm`, which the import's clean-up removes), streaming and within the budgets,
 * its header checked before its pixel data is inflated; its frames are read from there.
 */
export async function readDicomUpload(filePath: string, fileName: string, budgets: ImportBudgets = DEFAULT_IMPORT_BUDGETS): Promise<DicomFile> {
  try {
    return readChecked(filePath, fileName, budgets, null);
  } catch (error) {
    if (!(error instanceof DeflatedFile)) throw error;
  }
  const inflatedPath = `${filePath}.inflated.dcm`;
  await inflateDeflatedFile(
    filePath,
    inflatedPath,
    {
      maxInflatedBytes: budgets.memoryBytes,
      maxHeaderBytes: Math.min(MAX_HEADER_BYTES, budgets.memoryBytes),
      checkHeader: (head) => {
        const dataSet = completeHeader(head, fileName);
        if (dataSet) checkHeader(dataSet, EXPLICIT_LITTLE_ENDIAN, fileName, budgets);
        return dataSet !== null;
      },
    },
    fileName,
  );
  return readChecked(inflatedPath, fileName, budgets, { transferSyntaxUid: DEFLATED_EXPLICIT_LITTLE_ENDIAN, fileSize: fs.statSync(filePath).size });
}

/**
 * The header of an inflated file's first bytes once they reach its pixel data element, else null
 * (more bytes are needed). Elements no DICOM writer makes (element-order.ts) refuse the file at once,
 * so a deflate bomb is not parsed again at every size up to the header limit.
 */
function completeHeader(head: Buffer, fileName: string): DataSet | null {
  const misordered = misorderedElement(head);
  if (misordered) throw rejectFile('not_dicom', fileName, `its inflated data set is not DICOM: ${misordered}.`);
  try {
    const dataSet = dicomParser.parseDicom(head, { untilTag: PIXEL_DATA });
    return dataSet.elements[PIXEL_DATA] ? dataSet : null;
  } catch {
    return null;
  }
}
