/**
 * What every object "Send to PACS" stores has in common: the patient and study it belongs to (the
 * pullback's, so the PACS files it beside the images), a series of its own, the equipment that
 * made it, and its creation time. As naturalized dcmjs attributes.
 */
import type { Naturalized } from './dcmjs.ts';

export interface ReportSubject {
  patient: { patientId: string; name: string; birthDate: string | null /* YYYY-MM-DD */; sex: 'F' | 'M' | 'O' | 'U' };
  study: { studyInstanceUid: string };
  /** The pullback instance the slices are frames of. */
  pullback: { sopClassUid: string; sopInstanceUid: string; seriesInstanceUid: string };
  author: { name: string; email: string };
  madeAt: Date;
  recordId: string;
}

/** A DICOM object made for "Send to PACS": its Part 10 bytes and the UIDs the route records. */
export interface BuiltDicomObject {
  bytes: Uint8Array;
  sopInstanceUid: string;
  seriesInstanceUid: string;
}

export const MANUFACTURER = 'IVUS Review';

/**
 * A name as DICOM PN. Our names are "Family, Given Middle" (import/attributes.ts personName writes
 * them so); that form goes back to "Family^Given Middle", any other form is kept whole as the
 * family name component rather than guessed apart. `^`, `=` and `\` would split components,
 * groups and values, so they become spaces; a group holds at most 64 characters (code points, so
 * a name in a script outside the BMP is never cut inside a character).
 */
export function dicomPersonName(name: string): string {
  const clean = name.replace(/[\\^=]/g, ' ').replace(/\s+/g, ' ').trim();
  const comma = clean.indexOf(',');
  const pn = comma > 0 ? `${clean.slice(0, comma).trim()}^${clean.slice(comma + 1).trim()}` : clean;
  return firstCharacters(pn, 64);
}

/** An LO value: no backslash (the value separator), at most 64 characters. */
export function longString(value: string): string {
  return firstCharacters(value.replace(/\\/g, '/'), 64);
}

/** The first `count` characters of `text`, counted in code points (a surrogate pair is one). */
function firstCharacters(text: string, count: number): string {
  return Array.from(text).slice(0, count).join('');
}

/** YYYY-MM-DD as a DA value; '' (type 2: present, empty) when unknown or unreadable. */
export function dicomDate(isoDate: string | null): string {
  const m = isoDate ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate) : null;
  return m ? `${m[1]}${m[2]}${m[3]}` : '';
}

/** DA and TM of an instant in UTC; the dataset says so with TimezoneOffsetFromUTC "+0000". */
export function utcDateTime(instant: Date): { date: string; time: string } {
  const iso = instant.toISOString();
  return { date: iso.slice(0, 10).replace(/-/g, ''), time: iso.slice(11, 19).replace(/:/g, '') };
}

/** DICOM's enumerated sexes are M, F and O; unknown is an empty (type 2) value. */
const SEX = { F: 'F', M: 'M', O: 'O', U: '' } as const;

/**
 * Patient, General Study, the series, General Equipment and SOP Common attributes of a new object.
 * The study's date, time, ID, accession number and referring physician are type 2: left empty,
 * as the PACS already holds them for the pullback's study and matches on the Study Instance UID.
 */
export function documentAttributes(
  subject: ReportSubject,
  object: { sopClassUid: string; sopInstanceUid: string; seriesInstanceUid: string; modality: string; seriesNumber: number; seriesDescription: string },
): Naturalized {
  const { date, time } = utcDateTime(subject.madeAt);
  return {
    SOPClassUID: object.sopClassUid,
    SOPInstanceUID: object.sopInstanceUid,
    InstanceCreationDate: date,
    InstanceCreationTime: time,
    TimezoneOffsetFromUTC: '+0000',
    PatientName: dicomPersonName(subject.patient.name),
    PatientID: longString(subject.patient.patientId),
    PatientBirthDate: dicomDate(subject.patient.birthDate),
    PatientSex: SEX[subject.patient.sex],
    StudyInstanceUID: subject.study.studyInstanceUid,
    StudyDate: '',
    StudyTime: '',
    ReferringPhysicianName: '',
    StudyID: '',
    AccessionNumber: '',
    Modality: object.modality,
    SeriesInstanceUID: object.seriesInstanceUid,
    SeriesNumber: object.seriesNumber,
    SeriesDescription: object.seriesDescription,
    SeriesDate: date,
    SeriesTime: time,
    Manufacturer: MANUFACTURER,
    InstanceNumber: 1,
    ContentDate: date,
    ContentTime: time,
  };
}

/**
 * The character set to declare: none when every string is ASCII (the default repertoire), else
 * UTF-8, which is how dcmjs writes strings.
 */
export function withCharacterSet(dataset: Naturalized): Naturalized {
  const ascii = !/[^\x20-\x7e\r\n\t]/.test(JSON.stringify(dataset, (_key, value: unknown) => (value instanceof ArrayBuffer ? null : value)));
  return ascii ? dataset : { SpecificCharacterSet: 'ISO_IR 192', ...dataset };
}
