import { useCallback, useEffect, useState } from 'react';
import { ApiError } from './api-client.ts';

export interface RemoteState<T> {
  /** The last answer; kept while the next one loads so the table does not jump. */
  data: T | null;
  loading: boolean;
  error: ApiError | null;
  /** Loads again (after a change, or to retry a failure). */
  reload: () => void;
}

interface Result<T> {
  /** Which request (key and attempt) this result answers. */
  key: string;
  data: T | null;
  error: ApiError | null;
}

/**
 * One GET whose answer depends on `key` (the JSON of its parameters). A newer request aborts
 * the older one, so a late answer never replaces a newer one. A null key loads nothing. Shared by
 * the features (users, upload), which never import each other.
 */
export function useRemote<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>, failure: string): RemoteState<T> {
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<Result<T>>({ key: '', data: null, error: null });
  const requestKey = `${key}#${attempt}`;

  useEffect(() => {
    if (key === null) return undefined;
    const controller = new AbortController();
    load(controller.signal)
      .then((data) => setResult({ key: requestKey, data, error: null }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        const apiError = error instanceof ApiError ? error : new ApiError(0, 'unexpected', failure);
        setResult((previous) => ({ ...previous, key: requestKey, error: apiError }));
      });
    return () => controller.abort();
    // `load` is rebuilt on every render; `requestKey` names everything it depends on.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [requestKey]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  if (key === null) return { data: null, loading: false, error: null, reload };
  const loading = result.key !== requestKey;
  return { data: result.data, loading, error: loading ? null : result.error, reload };
}
