import { useCallback, useEffect, useState } from 'react';
import { PatientPageSchema, type PatientListQuery, type PatientPage } from '../../../domain/patients.ts';
import { ApiError } from '../../api/api-client.ts';
import { useApi } from '../../api/api-context.tsx';

export interface PatientPageState {
  /** The last page received; kept while the next one loads so the table does not jump. */
  data: PatientPage | null;
  loading: boolean;
  error: ApiError | null;
  retry: () => void;
}

interface PageResult {
  /** Which request (query and attempt) this result answers. */
  key: string;
  data: PatientPage | null;
  error: ApiError | null;
}

export function usePatientPage(query: PatientListQuery): PatientPageState {
  const api = useApi();
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<PageResult>({ key: '', data: null, error: null });
  const { page, pageSize, search, sort, order } = query;
  const key = JSON.stringify([page, pageSize, search, sort, order, attempt]);

  useEffect(() => {
    const controller = new AbortController();
    api
      .get(PatientPageSchema, 'patients', { query: { page, pageSize, search, sort, order }, signal: controller.signal })
      .then((data) => setResult({ key, data, error: null }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = error instanceof ApiError ? error : new ApiError(0, 'unexpected', 'The patients could not be loaded.');
        setResult((previous) => ({ ...previous, key, error: apiError }));
      });
    return () => controller.abort();
  }, [api, key, page, pageSize, search, sort, order]);

  const retry = useCallback(() => setAttempt((n) => n + 1), []);
  // Anything but the answer to the current request means that answer is still on its way.
  const loading = result.key !== key;
  return { data: result.data, loading, error: loading ? null : result.error, retry };
}
