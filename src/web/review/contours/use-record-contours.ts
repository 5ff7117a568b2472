import { useEffect, useState } from 'react';
import { ContoursProcessingSchema } from '../../../domain/contours/api.ts';
import { RecordContoursWithStentSchema, type RecordContoursWithStent } from '../../../domain/stent/stored-stent.ts';
import { useApi } from '../../api/api-context.tsx';
import type { ApiClient } from '../../api/api-client.ts';

export type RecordContoursState =
  | { status: 'loading' }
  | { status: 'processing'; done: number; total: number }
  /** With the stent the server read beside the borders (issue 28), where the contours were detected since it does. */
  | { status: 'ready'; contours: RecordContoursWithStent }
  | { status: 'error'; message: string };

const POLL_MS = 1500;

async function fetchContours(api: ApiClient, recordId: string, signal: AbortSignal): Promise<RecordContoursState> {
  // 200 (ready) and 202 (still being detected) have different bodies: one request, either schema.
  const body = await api.request({
    resource: `records/${encodeURIComponent(recordId)}/contours`,
    schema: RecordContoursWithStentSchema.or(ContoursProcessingSchema),
    signal,
  });
  return 'contours' in body ? { status: 'ready', contours: body } : { status: 'processing', done: body.done, total: body.total };
}

/** The record's automatically detected lumen and vessel contours, polled while the server is still detecting them. */
export function useRecordContours(recordId: string, enabled = true): RecordContoursState {
  const api = useApi();
  const [state, setState] = useState<RecordContoursState>({ status: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = () => {
      fetchContours(api, recordId, controller.signal)
        .then((next) => {
          setState(next);
          if (next.status === 'processing') timer = setTimeout(poll, POLL_MS);
        })
        .catch((error: unknown) => {
          if (!controller.signal.aborted) setState({ status: 'error', message: error instanceof Error ? error.message : 'The contours could not be loaded.' });
        });
    };
    poll();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [api, recordId, enabled]);
  return state;
}
