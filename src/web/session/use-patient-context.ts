import { useCallback, useEffect, useMemo, useState } from 'react';
import { PatientRecordsSchema } from '../../domain/records.ts';
import { ApiError } from '../api/api-client.ts';
import { useApi } from '../api/api-context.tsx';
import {
  patientContextFrom,
  readPatientContext,
  readRecordContext,
  writePatientContext,
  writeRecordContext,
  type ContextRecord,
  type PatientContext,
} from './context-store.ts';

export interface PatientContextState {
  /** The stored context shows at once; the API answer replaces it (annotation status may have changed). */
  context: PatientContext | null;
  loading: boolean;
  error: ApiError | null;
  retry: () => void;
}

interface ContextResult {
  key: string;
  context: PatientContext | null;
  error: ApiError | null;
}

/** The patient context of `patientId`, from session storage and refreshed from the API (deep links and reloads work). */
export function usePatientContext(patientId: string): PatientContextState {
  const api = useApi();
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<ContextResult>({ key: '', context: null, error: null });
  const key = JSON.stringify([patientId, attempt]);

  useEffect(() => {
    const controller = new AbortController();
    api
      .get(PatientRecordsSchema, 'patients', { pathParams: [patientId, 'records'], signal: controller.signal })
      .then((answer) => {
        const context = patientContextFrom(answer);
        writePatientContext(context);
        setResult({ key, context, error: null });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError =
          error instanceof ApiError ? error : new ApiError(0, 'unexpected', 'The records could not be loaded.');
        setResult({ key, context: null, error: apiError });
      });
    return () => controller.abort();
  }, [api, key, patientId]);

  const loading = result.key !== key;
  const answered = result.context?.patient.patientId === patientId ? result.context : null;
  // Until the API answers (or when it fails) the stored context of this patient stands in.
  const stored = useMemo(() => (answered ? null : readPatientContext(patientId)), [answered, patientId]);
  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  return { context: answered ?? stored, loading, error: loading ? null : result.error, retry };
}

export interface RecordContextState extends PatientContextState {
  record: ContextRecord | null;
}

/** The record of a review, remembered as the record context. */
export function useRecordContext(patientId: string, recordId: string): RecordContextState {
  const patient = usePatientContext(patientId);
  const record = useMemo(
    () =>
      patient.context?.patient.records.find((candidate) => candidate.recordId === recordId) ??
      readRecordContext(patientId, recordId)?.record ??
      null,
    [patient.context, patientId, recordId],
  );

  useEffect(() => {
    if (record) writeRecordContext({ patientId, record });
  }, [patientId, record]);

  return { ...patient, record };
}
