/**
 * The few dcmjs calls the DICOM writers and the report reader use, typed, and Part 10 in and out:
 * explicit VR little endian files with a file meta header, from and to dcmjs's naturalized datasets
 * (attributes by keyword, sequences as arrays of objects, numbers as numbers).
 *
 * dcmjs ships no type declarations. They are given here rather than in an ambient
 * `declare module 'dcmjs'`: such a declaration would type every import of dcmjs in the project,
 * and tests/support/dicom-fixtures.ts imports it untyped on purpose (`@ts-expect-error`).
 */
// @ts-expect-error -- dcmjs ships no type declarations; the calls used are typed below.
import dcmjsUntyped from 'dcmjs';
import { randomUUID } from 'node:crypto';

/** A naturalized dataset: attribute keyword → value (string, number, array of items, ArrayBuffer list). */
export type Naturalized = Record<string, unknown>;

interface DicomDictInstance {
  dict: Record<string, unknown>;
  meta: Record<string, unknown>;
  write(options?: Record<string, unknown>): ArrayBuffer;
}

interface DcmjsData {
  DicomDict: new (meta: Record<string, unknown>) => DicomDictInstance;
  DicomMessage: { readFile(buffer: ArrayBuffer, options?: Record<string, unknown>): DicomDictInstance };
  DicomMetaDictionary: {
    denaturalizeDataset(dataset: Naturalized): Record<string, unknown>;
    naturalizeDataset(dataset: Record<string, unknown>): Naturalized;
  };
}

const { DicomDict, DicomMessage, DicomMetaDictionary } = (dcmjsUntyped as { data: DcmjsData }).data;

export const EXPLICIT_VR_LITTLE_ENDIAN = '1.2.840.10008.1.2.1';
/** Our implementation class UID (2.25 form: a UUID, so it needs no registered root). */
const IMPLEMENTATION_CLASS_UID = '2.25.302919823384722917327498946452937460437';
const IMPLEMENTATION_VERSION_NAME = 'IVUSREVIEW_1';

/**
 * A new UID: "2.25." and the decimal value of a random (version 4) UUID, as PS3.5 B.2 allows
 * without a registered root. At most 44 characters, well under the 64 a UI may hold.
 */
export function newUid(): string {
  return `2.25.${BigInt(`0x${randomUUID().replace(/-/g, '')}`).toString()}`;
}

/** A Part 10 file (128-byte preamble, DICM, file meta, data set) in explicit VR little endian. */
export function writePart10(dataset: Naturalized): Uint8Array {
  const sopClassUid = dataset.SOPClassUID;
  const sopInstanceUid = dataset.SOPInstanceUID;
  if (typeof sopClassUid !== 'string' || typeof sopInstanceUid !== 'string') throw new Error('a dataset needs SOPClassUID and SOPInstanceUID');
  const meta = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: sopClassUid,
    MediaStorageSOPInstanceUID: sopInstanceUid,
    TransferSyntaxUID: EXPLICIT_VR_LITTLE_ENDIAN,
    ImplementationClassUID: IMPLEMENTATION_CLASS_UID,
    ImplementationVersionName: IMPLEMENTATION_VERSION_NAME,
  };
  const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  dict.dict = DicomMetaDictionary.denaturalizeDataset(dataset);
  return new Uint8Array(dict.write());
}

/**
 * dcmjs 0.52.2 decodes the strings of sequence items as latin1 (its item streams do not inherit the
 * decoder SpecificCharacterSet chose), so UTF-8 text inside SR content items comes back as mojibake
 * ("’" as "â€™"). Such a string is re-encoded with the same latin1 decoder's byte mapping and
 * decoded as UTF-8 again. Only for ISO_IR 192 datasets, only below the top level; the report test
 * with a non-ASCII note fails if a dcmjs upgrade fixes (or changes) this.
 */
const LATIN1 = new TextDecoder('latin1');
const BYTE_OF = new Map<string, number>(Array.from({ length: 256 }, (_, byte) => [LATIN1.decode(new Uint8Array([byte])), byte]));
const UTF8 = new TextDecoder('utf-8');

function redecode(text: string): string {
  // Pure ASCII is the same in both: the common case costs one test.
  if (!/[\u0080-\uffff]/.test(text)) return text;
  const bytes = Uint8Array.from(text, (char) => BYTE_OF.get(char) ?? 0x3f);
  return UTF8.decode(bytes);
}

const PERSON_NAME_GROUPS = new Set(['Alphabetic', 'Ideographic', 'Phonetic']);

/** A naturalized sequence: items (objects) that are not person name values. */
function isSequence(value: unknown): boolean {
  if (!Array.isArray(value) || typeof value[0] !== 'object' || value[0] === null || value[0] instanceof ArrayBuffer) return false;
  return !Object.keys(value[0] as object).every((key) => PERSON_NAME_GROUPS.has(key));
}

function repairItems(value: unknown): unknown {
  if (typeof value === 'string') return redecode(value);
  if (Array.isArray(value)) return value.map(repairItems);
  if (value && typeof value === 'object' && !(value instanceof ArrayBuffer) && !ArrayBuffer.isView(value)) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, repairItems(inner)]));
  }
  return value;
}

/** A Part 10 file's data set, naturalized. Throws for bytes that are not a readable Part 10 file. */
export function readPart10(bytes: Uint8Array): Naturalized {
  // dcmjs reads an ArrayBuffer from its start: copy out the view's own bytes.
  const buffer = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const file = DicomMessage.readFile(buffer);
  const dataset = DicomMetaDictionary.naturalizeDataset(file.dict);
  // dcmjs rewrites SpecificCharacterSet to ISO_IR 192 whatever it was; the raw value is the file's.
  const declared = (file.dict['00080005'] as { _rawValue?: unknown[] } | undefined)?._rawValue?.[0];
  if (typeof declared !== 'string' || declared.trim() !== 'ISO_IR 192') return dataset;
  // Top-level values were decoded right, person names ({ Alphabetic }) included; sequences hold the items to repair.
  return Object.fromEntries(Object.entries(dataset).map(([key, value]) => [key, isSequence(value) ? repairItems(value) : value]));
}
