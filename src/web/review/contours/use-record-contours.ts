import { useEffect, useState } from 'react';
import { ContoursProcessingSchema } from '../../../domain/contours/api.ts';
import { ProvisionalContoursSchema, type ProvisionalContours } from '../../../domain/contours/provisional-contours.ts';
import { RecordContoursWithStentSchema, type RecordContoursWithStent } from '../../../domain/stent/stored-stent.ts';
import { useApi } from '../../api/api-context.tsx';
import type { ApiClient } from '../../api/api-client.ts';

export type RecordContoursState =
  | { status: 'loading' }
  /** `provisional`: what the detection has found so far (once it has sampled the whole pullback), or null. */
  | { status: 'processing'; done: number; total: number; provisional: ProvisionalContours | null }
  /**
   * With the stent the server read beside the borders (issue 28), where the contours were detected
   * since it does. `contours.stentPending`: the borders and MLA are final, the stent is still being
   * read (issue 23): the hook keeps polling until it is in.
   */
  | { status: 'ready'; contours: RecordContoursWithStent }
  | { status: 'error'; message: string };

const POLL_MS = 1500;

async function fetchContours(api: ApiClient, recordId: string, signal: AbortSignal, provisional: ProvisionalContours | null): Promise<RecordContoursState> {
  // 200 (ready) and 202 (still being detected) have different bodies: one request, either schema.
  const body = await api.request({
    resource: `records/${encodeURIComponent(recordId)}/contours`,
    schema: RecordContoursWithStentSchema.or(ContoursProcessingSchema),
    signal,
  });
  if ('contours' in body) return { status: 'ready', contours: body };
  // The provisional contours are fetched again only when the detection has published more frames.
  const published = body.provisionalFrames ?? 0;
  if (published > 0 && published !== provisional?.detectedFrames) {
    provisional = await api
      .request({ resource: `records/${encodeURIComponent(recordId)}/contours/provisional`, schema: ProvisionalContoursSchema, signal })
      // Gone meanwhile (the final contours were stored): the next poll brings them.
      .catch((error: unknown) => (signal.aborted ? Promise.reject(error) : provisional));
  }
  return { status: 'processing', done: body.done, total: body.total, provisional };
}

/** Polled again: still detecting, or the contours are final but their stent is still being read. */
const pollsAgain = (state: RecordContoursState) => state.status === 'processing' || (state.status === 'ready' && state.contours.stentPending === true);

/**
 * The record's automatically detected lumen and vessel contours, polled while the server is still
 * detecting them, with the provisional contours published on the way (issue 23), and then until
 * their stent is in (the final contours come before it). A poll that brings the same contours
 * still waiting for their stent changes nothing: the review is not computed again for it.
 */
export function useRecordContours(recordId: string, enabled = true): RecordContoursState {
  const api = useApi();
  const [state, setState] = useState<RecordContoursState>({ status: 'loading' });
  useEffect(() => {
    if (!enabled) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    let provisional: ProvisionalContours | null = null;
    /** The final contours are shown, their stent still being read. */
    let waitingForStent = false;
    const poll = () => {
      fetchContours(api, recordId, controller.signal, provisional)
        .then((next) => {
          if (next.status === 'processing') provisional = next.provisional;
          const again = pollsAgain(next);
          if (!(again && next.status === 'ready' && waitingForStent)) setState(next);
          waitingForStent = again && next.status === 'ready';
          if (again) timer = setTimeout(poll, POLL_MS);
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
