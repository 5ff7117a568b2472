import { useCallback, useEffect, useMemo, useState } from 'react';
import type { ImportSummary } from '../../../domain/imports.ts';
import { ApiError } from '../../api/api-client.ts';
import type { ImportsApi } from './imports-api.ts';

/** How often an import still being decoded is asked for its progress. */
export const IMPORT_POLL_INTERVAL_MS = 1000;

export interface RecentImports {
  /** Newest first; null until the first list has come. */
  imports: ImportSummary[] | null;
  /** The list could not be loaded (the imports already known stay shown). */
  error: ApiError | null;
  loading: boolean;
  /** Imports whose last progress check failed, with why (they are asked again). */
  checkFailures: Readonly<Record<string, string>>;
  reload: () => void;
  /** An import the page has just started. */
  add: (summary: ImportSummary) => void;
}

const finished = (summary: ImportSummary) => summary.status !== 'processing';

/** The more advanced of two answers about the same import (answers may arrive out of order). */
function later(known: ImportSummary | undefined, next: ImportSummary): ImportSummary {
  if (!known) return next;
  if (finished(known) && !finished(next)) return known;
  if (!finished(known) && !finished(next) && known.framesDone > next.framesDone) return known;
  return next;
}

function merge(known: Record<string, ImportSummary>, answers: readonly ImportSummary[]): Record<string, ImportSummary> {
  const merged = { ...known };
  for (const answer of answers) merged[answer.importId] = later(merged[answer.importId], answer);
  return merged;
}

const time = (summary: ImportSummary) => Date.parse(summary.createdAt) || 0;

function asApiError(error: unknown, fallback: string): ApiError {
  return error instanceof ApiError ? error : new ApiError(0, 'unexpected', fallback);
}

/**
 * The tenant's recent imports (GET imports), merged with the ones started on this page, and the
 * ones still processing asked for their progress (GET imports/{id}) until they are done or failed.
 */
export function useRecentImports(imports: ImportsApi, pollIntervalMs = IMPORT_POLL_INTERVAL_MS): RecentImports {
  const [byId, setById] = useState<Record<string, ImportSummary>>({});
  const [attempt, setAttempt] = useState(0);
  const [listed, setListed] = useState<{ attempt: number; error: ApiError | null } | null>(null);
  const [checkFailures, setCheckFailures] = useState<Record<string, string>>({});

  useEffect(() => {
    const controller = new AbortController();
    imports
      .list(controller.signal)
      .then((list) => {
        setById((known) => merge(known, list.imports));
        setListed({ attempt, error: null });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        setListed({ attempt, error: asApiError(error, 'The recent imports could not be loaded.') });
      });
    return () => controller.abort();
  }, [imports, attempt]);

  const sorted = useMemo(() => Object.values(byId).sort((a, b) => time(b) - time(a)), [byId]);
  const processingKey = sorted
    .filter((summary) => !finished(summary))
    .map((summary) => summary.importId)
    .sort()
    .join(' ');

  useEffect(() => {
    if (!processingKey) return undefined;
    const ids = processingKey.split(' ');
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = async (importId: string) => {
      try {
        const summary = await imports.get(importId, controller.signal);
        setById((known) => merge(known, [summary]));
        setCheckFailures(({ [importId]: _, ...others }) => others);
      } catch (error) {
        if (controller.signal.aborted) return;
        const apiError = asApiError(error, 'The progress could not be checked.');
        if (apiError.status === 404) {
          // The server no longer knows it: show it as ended rather than asking forever.
          setById((known) => {
            const summary = known[importId];
            if (!summary) return known;
            const gone = { code: 'not_found', message: 'The server no longer knows this import. Upload the files again.' };
            return { ...known, [importId]: { ...summary, status: 'failed', error: gone } };
          });
          return;
        }
        setCheckFailures((failures) => ({ ...failures, [importId]: apiError.message }));
      }
    };
    const tick = async () => {
      await Promise.all(ids.map(check));
      if (!controller.signal.aborted) timer = setTimeout(tick, pollIntervalMs);
    };
    timer = setTimeout(tick, pollIntervalMs);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [imports, processingKey, pollIntervalMs]);

  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const add = useCallback((summary: ImportSummary) => setById((known) => merge(known, [summary])), []);
  const loading = listed?.attempt !== attempt;
  const firstLoad = listed === null && sorted.length === 0;
  return {
    imports: firstLoad ? null : sorted,
    error: loading ? null : (listed?.error ?? null),
    loading,
    checkFailures,
    reload,
    add,
  };
}
