/**
 * Which patient each file of an upload is filed under, and the checks that keep a file from
 * landing in the wrong patient: a file without a usable Patient ID needs the uploader's choice
 * (the form fields of IMPORT_FORM_FIELDS), and a Patient ID that exists under another name or
 * birth date, or a file whose own Patient ID is not the one chosen, needs the uploader's
 * confirmation (confirmPatientIdentity=true).
 */
import { IMPORT_FORM_FIELDS, type ImportRejected } from '../../domain/imports.ts';
import { PATIENT_ID_PATTERN } from '../../domain/records.ts';
import type { Db } from '../db/client.ts';
import { personName } from '../dicom/attributes.ts';
import { patientIdentities } from '../db/patients.ts';
import type { DicomFile, DicomPatient } from '../dicom/dicom-file.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import { UploadFormError } from './errors.ts';

type Sex = DicomPatient['sex'];
type Identity = { name: string; birthDate: string | null };

/** The uploader's choice of patient, from the form fields (all optional). */
export type ImportForm = {
  patientId: string | null;
  patientName: string | null;
  birthDate: string | null;
  sex: Sex | null;
  confirmPatientIdentity: boolean;
  /** Ultrasound that is not IVUS is imported (as other ultrasound) only when the uploader says so. */
  confirmOtherUltrasound: boolean;
};

/** The patient a file is filed under. */
export type PatientChoice = {
  id: string;
  /** What the upload says of the patient: the row a new patient gets, and what an existing one must match. */
  name: string;
  birthDate: string | null;
  sex: Sex;
  chosenByUploader: boolean;
  /** The uploader confirmed it despite another name or birth date (confirmPatientIdentity=true). */
  confirmed: boolean;
  /** An identity difference was found and confirmed. */
  identityConfirmed: boolean;
};

const MAX_NAME_LENGTH = 200;
const F = IMPORT_FORM_FIELDS;

/** Checks the form fields (a clear 400 for a bad value). */
export function parseImportForm(fields: Record<string, string>): ImportForm {
  const text = (name: string) => {
    const value = fields[name]?.trim();
    return value ? value : null;
  };
  const patientId = text(F.patientId);
  if (patientId !== null && !PATIENT_ID_PATTERN.test(patientId)) {
    throw new UploadFormError(400, `${F.patientId} "${patientId}" is not a valid patient id (letters, digits, '.', '_' and '-', up to 64 characters).`);
  }
  // A name typed the DICOM way (Family^Given) is kept the way the files' names are ("Family, Given").
  const typed = text(F.patientName)?.replace(/\s+/g, ' ') ?? null;
  const patientName = typed?.includes('^') ? personName(typed) || null : typed;
  // eslint-disable-next-line no-control-regex
  if (patientName !== null && (patientName.length > MAX_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(patientName))) {
    throw new UploadFormError(400, `${F.patientName} must be a name of at most ${MAX_NAME_LENGTH} characters.`);
  }
  const birthDate = text(F.birthDate);
  if (birthDate !== null && !isCalendarDate(birthDate)) throw new UploadFormError(400, `${F.birthDate} "${birthDate}" is not a date (YYYY-MM-DD).`);
  const sex = text(F.sex)?.toUpperCase() ?? null;
  if (sex !== null && sex !== 'F' && sex !== 'M' && sex !== 'O' && sex !== 'U') throw new UploadFormError(400, `${F.sex} must be F, M, O or U.`);
  const confirm = text(F.confirmPatientIdentity);
  if (confirm !== null && confirm !== 'true' && confirm !== 'false') throw new UploadFormError(400, `${F.confirmPatientIdentity} must be true or false.`);
  const otherUltrasound = text(F.confirmOtherUltrasound);
  if (otherUltrasound !== null && otherUltrasound !== 'true' && otherUltrasound !== 'false') throw new UploadFormError(400, `${F.confirmOtherUltrasound} must be true or false.`);
  if (patientId === null && (patientName !== null || birthDate !== null || sex !== null)) {
    throw new UploadFormError(400, `${F.patientName}, ${F.birthDate} and ${F.sex} describe the patient named by ${F.patientId}: send ${F.patientId} too.`);
  }
  return { patientId, patientName, birthDate, sex, confirmPatientIdentity: confirm === 'true', confirmOtherUltrasound: otherUltrasound === 'true' };
}

function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/** A name as compared: case, spacing and DICOM ^ (or ", ") separators do not count. */
export function normalisedName(name: string): string {
  return name.normalize('NFC').toLowerCase().replace(/[\^,\s]+/g, ' ').trim();
}

/** Two identities differ when both give a name and the names differ, or both give a birth date and the dates differ. */
export function identitiesDiffer(a: Identity, b: Identity): boolean {
  const nameA = normalisedName(a.name);
  const nameB = normalisedName(b.name);
  if (nameA && nameB && nameA !== nameB) return true;
  return a.birthDate !== null && b.birthDate !== null && a.birthDate !== b.birthDate;
}

function describe(identity: Identity): string {
  return `"${identity.name || '(no name)'}"${identity.birthDate ? ` born ${identity.birthDate}` : ''}`;
}

function mismatch(message: string, fileName: string | null, identity: NonNullable<ImportRejected['patientIdentity']>): ImportRejection {
  return new ImportRejection('patient_identity_mismatch', `${message} Check that it is the same patient, or send ${F.confirmPatientIdentity}=true to import anyway.`, fileName, {
    patientIdentity: identity,
  });
}

function listed(names: string[]): string {
  const shown = names.slice(0, 5).join(', ');
  return names.length > 5 ? `${shown} and ${names.length - 5} more` : shown;
}

/**
 * The patient of every file (same order), or the refusal: 422 patient_id_required when a file has
 * no usable Patient ID and no patientId was chosen, 409 patient_identity_mismatch when a file or
 * the form names a patient other than the one it would be filed under (unless confirmed), 400
 * when a new patient has no name.
 */
export async function choosePatients(db: Pick<Db, 'select'>, tenantId: string, files: DicomFile[], form: ImportForm): Promise<PatientChoice[]> {
  const withoutId = files.filter((f) => f.patient.id === null);
  if (withoutId.length > 0 && form.patientId === null) {
    const names = withoutId.map((f) => f.fileName);
    const only = withoutId.length === 1 ? withoutId[0]! : null;
    throw new ImportRejection(
      'patient_id_required',
      only
        ? `${only.fileName}: it has ${only.patient.rawId ? `an unusable Patient ID ("${only.patient.rawId}")` : 'no Patient ID'}: choose the patient it belongs to (an existing one, or a new one with a name).`
        : `${names.length} files have no usable Patient ID (${listed(names)}): choose the patient they belong to (an existing one, or a new one with a name).`,
      only?.fileName ?? null,
      { filesWithoutPatientId: names },
    );
  }
  const ids = [...new Set([form.patientId, ...files.map((f) => f.patient.id)].filter((id): id is string => id !== null))];
  const existing = await patientIdentities(db, tenantId, ids);
  const confirm = form.confirmPatientIdentity;
  /** Refuses a difference unless the upload confirms it; true when a difference was confirmed. */
  const check = (differs: boolean, refusal: () => ImportRejection): boolean => {
    if (differs && !confirm) throw refusal();
    return differs;
  };

  if (form.patientId !== null) {
    const id = form.patientId;
    const found = existing.get(id);
    if (!found && form.patientName === null) {
      throw new UploadFormError(400, `${F.patientName} is required: there is no patient "${id}" yet, and a new patient needs a name.`);
    }
    const chosen: Identity = found ?? { name: form.patientName!, birthDate: form.birthDate };
    let differenceConfirmed = false;
    if (found) {
      const claimed = { name: form.patientName ?? '', birthDate: form.birthDate };
      differenceConfirmed = check(identitiesDiffer(claimed, found), () =>
        mismatch(`The patient ${id} is ${describe(found)}, not ${describe(claimed)}.`, null, { patientId: id, file: claimed, existing: found }),
      );
    }
    for (const file of files) {
      const own = file.patient.id;
      if (own === null) continue;
      if (own !== id) {
        differenceConfirmed ||= check(true, () =>
          mismatch(`${file.fileName}: its Patient ID is ${own} (${describe(file.patient)}), not the chosen patient ${id}.`, file.fileName, {
            patientId: id,
            file: identityOf(file),
            existing: chosen,
          }),
        );
      } else {
        differenceConfirmed ||= check(identitiesDiffer(file.patient, chosen), () =>
          mismatch(`${file.fileName}: the patient ${id} is ${describe(chosen)}, the file says ${describe(file.patient)}.`, file.fileName, {
            patientId: id,
            file: identityOf(file),
            existing: chosen,
          }),
        );
      }
    }
    const choice: PatientChoice = {
      id,
      name: chosen.name,
      birthDate: chosen.birthDate,
      sex: form.sex ?? 'U',
      chosenByUploader: true,
      confirmed: confirm,
      identityConfirmed: differenceConfirmed,
    };
    return files.map(() => choice);
  }

  // Each file under its own Patient ID; a new patient takes the identity of its first file.
  const claimedBy = new Map<string, { identity: Identity; fileName: string | null }>();
  for (const [id, row] of existing) claimedBy.set(id, { identity: row, fileName: null });
  return files.map((file): PatientChoice => {
    const id = file.patient.id!;
    const earlier = claimedBy.get(id);
    let identityConfirmed = false;
    if (earlier) {
      identityConfirmed = check(identitiesDiffer(file.patient, earlier.identity), () =>
        mismatch(
          earlier.fileName
            ? `${file.fileName}: it says the patient ${id} is ${describe(file.patient)}, ${earlier.fileName} says ${describe(earlier.identity)}.`
            : `${file.fileName}: the patient ${id} is ${describe(earlier.identity)}, the file says ${describe(file.patient)}.`,
          file.fileName,
          { patientId: id, file: identityOf(file), existing: earlier.identity },
        ),
      );
    } else {
      claimedBy.set(id, { identity: identityOf(file), fileName: file.fileName });
    }
    return { id, name: file.patient.name || id, birthDate: file.patient.birthDate, sex: file.patient.sex, chosenByUploader: false, confirmed: confirm, identityConfirmed };
  });
}

function identityOf(file: DicomFile): Identity {
  return { name: file.patient.name, birthDate: file.patient.birthDate };
}
