import { z } from 'zod';
import { IMPORT_ERROR_CODES, ImportBatchSchema, ImportRejectedSchema, type ImportBatch, type ImportRejected } from '../../../domain/imports.ts';
import {
  PACS_PROBLEMS,
  PacsConnectionListSchema,
  PacsSeriesListSchema,
  PacsStudyListSchema,
  type PacsConnectionList,
  type PacsPullRequest,
  type PacsSeriesList,
  type PacsStudyList,
  type PacsStudyQuery,
} from '../../../domain/pacs.ts';
import { ApiError, apiErrorOf, type ApiClient } from '../../api/api-client.ts';

/** How far the server is in retrieving the series from the PACS. */
export interface PullProgress {
  instancesDone: number;
  instancesTotal: number;
  /** Bytes retrieved so far, all instances together. */
  bytes: number;
}

const count = z.number().int().nonnegative();
/**
 * The lines of a pull's NDJSON answer (asked with `Accept: application/x-ndjson`): progress lines
 * while the instances are retrieved, then one result line with the status and body that the
 * request without streaming answers.
 */
const PullLineSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('progress'), instancesDone: count, instancesTotal: count, bytes: z.number().nonnegative() }),
  z.object({ type: z.literal('result'), status: z.number().int().min(100).max(599), body: z.unknown() }),
]);

/** How a pull ended: the answers of a file upload, and the PACS's own problems. */
export type PullOutcome =
  /** 202: one import per record, being decoded on the server (followed in the recent imports). */
  | { kind: 'accepted'; batch: ImportBatch }
  /** The upload's own refusals: patient_id_required, patient_identity_mismatch, a refused file… */
  | { kind: 'rejected'; rejection: ImportRejected }
  /** A PacsProblem: the PACS did not answer, refused the credentials, does not have the series… */
  | { kind: 'problem'; message: string }
  /** Anything else the server answered (a 5xx, a 401, an answer that could not be read). */
  | { kind: 'failed'; message: string }
  | { kind: 'network' };

/** What a failed pull request means (the answer's body is the ApiError's details). */
export function pullOutcome(error: unknown): PullOutcome {
  if (!(error instanceof ApiError)) return { kind: 'failed', message: 'The series could not be imported.' };
  if (error.status === 0) return { kind: 'network' };
  if (error.status === 401) return { kind: 'failed', message: 'Your session has ended. Sign in again, then import the series again.' };
  if (error.code in PACS_PROBLEMS) return { kind: 'problem', message: error.message };
  if (error.status >= 400 && error.status < 500 && error.code in IMPORT_ERROR_CODES) {
    const rejected = ImportRejectedSchema.safeParse(error.details);
    return { kind: 'rejected', rejection: rejected.success ? rejected.data : { error: error.code, message: error.message, fileName: null } };
  }
  return { kind: 'failed', message: error.message };
}

/** What the result line of a streamed pull means: its status and body are those of an answer without streaming. */
export function pullResultOutcome(status: number, body: unknown): PullOutcome {
  if (status < 200 || status >= 300) return pullOutcome(apiErrorOf(status, body));
  const batch = ImportBatchSchema.safeParse(body);
  if (batch.success) return { kind: 'accepted', batch: batch.data };
  console.error('Unexpected result of a pull', batch.error.issues);
  return { kind: 'failed', message: 'The server sent an answer that could not be read.' };
}

const segment = encodeURIComponent;

/** The PACS calls of the Upload page (src/domain/pacs.ts), each answer checked against its schema. */
export interface PacsBrowseApi {
  connections(signal?: AbortSignal): Promise<PacsConnectionList>;
  studies(connectionId: string, query: PacsStudyQuery, signal?: AbortSignal): Promise<PacsStudyList>;
  series(connectionId: string, studyInstanceUid: string, signal?: AbortSignal): Promise<PacsSeriesList>;
  /** A rendered frame of the series; fails with a 404 when the PACS cannot render one. */
  thumbnail(connectionId: string, studyInstanceUid: string, seriesInstanceUid: string, signal?: AbortSignal): Promise<Blob>;
  /** Retrieves and imports the series, telling how far the retrieval is; never throws. */
  pull(connectionId: string, request: PacsPullRequest, onProgress?: (progress: PullProgress) => void): Promise<PullOutcome>;
}

export function pacsBrowseApi(api: ApiClient): PacsBrowseApi {
  const connection = (id: string) => ['pacs/connections', segment(id)].join('/');
  return {
    connections: (signal) => api.get(PacsConnectionListSchema, 'pacs/connections', { signal }),
    studies: (id, query, signal) => api.get(PacsStudyListSchema, connection(id), { pathParams: ['studies'], query, signal }),
    series: (id, study, signal) => api.get(PacsSeriesListSchema, connection(id), { pathParams: ['studies', study, 'series'], signal }),
    thumbnail: (id, study, series, signal) =>
      api.getBlob(`${connection(id)}/studies/${segment(study)}/series/${segment(series)}/thumbnail`, { signal }),
    pull: async (id, body, onProgress) => {
      try {
        const lines = api.requestLines({ resource: connection(id), pathParams: ['pull'], method: 'POST', body, schema: PullLineSchema });
        for await (const line of lines) {
          if (line.type === 'result') return pullResultOutcome(line.status, line.body);
          onProgress?.({ instancesDone: line.instancesDone, instancesTotal: line.instancesTotal, bytes: line.bytes });
        }
        // The answer ended without its result: the connection was lost (or the server stopped) on the way.
        return { kind: 'network' };
      } catch (error) {
        return pullOutcome(error);
      }
    },
  };
}
