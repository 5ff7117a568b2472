import { SEX_VALUES } from '../../../domain/patients.ts';
import { PATIENT_ID_PATTERN } from '../../../domain/records.ts';
import type { UploadFields } from './upload-request.ts';

export type Sex = (typeof SEX_VALUES)[number];

/** The new-patient form as typed (every field a string; sex '' when not chosen). */
export interface NewPatientDraft {
  patientId: string;
  patientName: string;
  /** YYYY-MM-DD from a date input, or ''. */
  birthDate: string;
  sex: Sex | '';
}

export type NewPatientErrors = Partial<Record<keyof NewPatientDraft, string>>;

export const EMPTY_PATIENT: NewPatientDraft = { patientId: '', patientName: '', birthDate: '', sex: '' };

/** The server's limit on a patient's name (longer names are refused with a 400). */
export const MAX_PATIENT_NAME_LENGTH = 200;

export const SEX_LABELS: Record<Sex, string> = { F: 'Female', M: 'Male', O: 'Other', U: 'Unknown' };

function isCalendarDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().startsWith(value);
}

/** Today as YYYY-MM-DD where the user is (a birth date after it is a typing mistake). */
export function localToday(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/**
 * Checks the new patient as the server will (ID pattern, name length, a real date) and a little
 * more (no birth date in the future), so the user reads why next to the field instead of after
 * sending the files again. Answers the errors, or the form fields to upload with.
 */
export function validateNewPatient(draft: NewPatientDraft, today = localToday()): { errors: NewPatientErrors; fields: UploadFields | null } {
  const errors: NewPatientErrors = {};
  const patientId = draft.patientId.trim();
  const patientName = draft.patientName.trim().replace(/\s+/g, ' ');
  const birthDate = draft.birthDate.trim();
  if (!patientId) errors.patientId = 'Enter the Patient ID.';
  else if (!PATIENT_ID_PATTERN.test(patientId)) {
    errors.patientId = "Use letters, digits, '.', '_' and '-' only, up to 64 characters.";
  }
  if (!patientName) errors.patientName = "Enter the patient's name.";
  // eslint-disable-next-line no-control-regex -- pasted text may carry control characters, which the server refuses
  else if (patientName.length > MAX_PATIENT_NAME_LENGTH || /[\u0000-\u001f\u007f]/.test(patientName)) {
    errors.patientName = `Enter a name of at most ${MAX_PATIENT_NAME_LENGTH} characters.`;
  }
  if (birthDate && !isCalendarDate(birthDate)) errors.birthDate = 'Enter a date such as 1961-04-09, or leave it empty.';
  else if (birthDate && birthDate > today) errors.birthDate = 'The birth date is in the future.';
  if (draft.sex !== '' && !SEX_VALUES.includes(draft.sex)) errors.sex = 'Choose one of the listed values.';
  if (Object.keys(errors).length > 0) return { errors, fields: null };
  const fields: UploadFields = { patientId, patientName };
  if (birthDate) fields.birthDate = birthDate;
  if (draft.sex) fields.sex = draft.sex;
  return { errors, fields };
}
