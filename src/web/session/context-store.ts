import { z } from 'zod';
import { PatientSummarySchema } from '../../domain/patients.ts';
import { RecordSummarySchema, type PatientRecords } from '../../domain/records.ts';

/**
 * Spec section 3: the patient context (patient with patientId and records) under one session
 * storage key, and the record context under another. Both are cleared on sign-out.
 */
export const PATIENT_CONTEXT_KEY = 'ivus.patientContext';
export const RECORD_CONTEXT_KEY = 'ivus.recordContext';

export const ContextRecordSchema = RecordSummarySchema.extend({
  /** API path of the record's saved annotation manifest; null until the API names one. */
  annotations: z.string().nullable(),
});
export type ContextRecord = z.infer<typeof ContextRecordSchema>;

export const PatientContextSchema = z.object({
  patient: PatientSummarySchema.extend({ records: z.array(ContextRecordSchema) }),
});
export type PatientContext = z.infer<typeof PatientContextSchema>;

export const RecordContextSchema = z.object({
  patientId: z.string(),
  record: ContextRecordSchema,
});
export type RecordContext = z.infer<typeof RecordContextSchema>;

export function patientContextFrom({ patient, records }: PatientRecords): PatientContext {
  return { patient: { ...patient, records: records.map((record) => ({ ...record, annotations: null })) } };
}

function read<T>(key: string, schema: z.ZodType<T>): T | null {
  try {
    const text = sessionStorage.getItem(key);
    if (text === null) return null;
    const parsed = schema.safeParse(JSON.parse(text));
    // Something else (an older version of the app) wrote it: start afresh from the API.
    if (!parsed.success) sessionStorage.removeItem(key);
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

function write(key: string, value: unknown): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch (error) {
    // A full or blocked storage only costs a reload from the API later.
    console.warn(`Unable to keep ${key} in session storage`, error);
  }
}

export function readPatientContext(patientId?: string): PatientContext | null {
  const context = read(PATIENT_CONTEXT_KEY, PatientContextSchema);
  return context && (patientId === undefined || context.patient.patientId === patientId) ? context : null;
}

export function writePatientContext(context: PatientContext): void {
  write(PATIENT_CONTEXT_KEY, context);
}

export function readRecordContext(patientId?: string, recordId?: string): RecordContext | null {
  const context = read(RECORD_CONTEXT_KEY, RecordContextSchema);
  if (!context) return null;
  if (patientId !== undefined && context.patientId !== patientId) return null;
  if (recordId !== undefined && context.record.recordId !== recordId) return null;
  return context;
}

export function writeRecordContext(context: RecordContext): void {
  write(RECORD_CONTEXT_KEY, context);
}

/** Forgets both contexts (sign-out). */
export function clearContexts(): void {
  try {
    sessionStorage.removeItem(PATIENT_CONTEXT_KEY);
    sessionStorage.removeItem(RECORD_CONTEXT_KEY);
  } catch {
    // Nothing was stored if storage is blocked.
  }
}
