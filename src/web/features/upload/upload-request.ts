import {
  IMPORT_FILE_FIELD,
  IMPORT_FORM_FIELDS,
  ImportBatchSchema,
  ImportRejectedSchema,
  importErrorMessage,
  type ImportBatch,
  type ImportRejected,
} from '../../../domain/imports.ts';
import type { SEX_VALUES } from '../../../domain/patients.ts';
import type { ApiClient } from '../../api/api-client.ts';

/** Bytes of the request body sent so far (XMLHttpRequest's upload progress; fetch has none). */
export interface UploadProgress {
  loaded: number;
  total: number;
}

/**
 * The form fields sent beside the files (IMPORT_FORM_FIELDS): the patient chosen for files without
 * a usable Patient ID, and the uploader's confirmation of a patient whose name or birth date differs.
 */
export interface UploadFields {
  patientId?: string;
  patientName?: string;
  /** YYYY-MM-DD. */
  birthDate?: string;
  sex?: (typeof SEX_VALUES)[number];
  confirmPatientIdentity?: boolean;
  /** The uploader knows the loop is not IVUS and wants it kept as other ultrasound, to view only. */
  confirmOtherUltrasound?: boolean;
}

/** How an upload ended. */
export type UploadOutcome =
  /** 202: one import per record the files make or fill, being decoded on the server, and the files skipped. */
  | { kind: 'accepted'; batch: ImportBatch }
  /** 4xx with the import's own answer: a file was refused and nothing was kept. */
  | { kind: 'rejected'; status: number; rejection: ImportRejected }
  /** Anything else the server answered (a 5xx, an answer that could not be read, a 401). */
  | { kind: 'failed'; status: number; message: string }
  /** The server was not reached, or the connection broke during the upload. */
  | { kind: 'network' }
  | { kind: 'aborted' };

export interface UploadHandle {
  done: Promise<UploadOutcome>;
  abort: () => void;
}

export const NETWORK_ERROR_MESSAGE = 'The upload did not reach the server. Check the connection and try again.';

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** What an answer of `status` with body `text` means for the upload. */
export function outcomeOf(status: number, text: string): UploadOutcome {
  const body = parseJson(text);
  if (status === 202 || status === 200) {
    const batch = ImportBatchSchema.safeParse(body);
    if (batch.success) return { kind: 'accepted', batch: batch.data };
    console.error('Unexpected answer from POST imports', batch.error.issues);
    return { kind: 'failed', status, message: 'The server sent an answer that could not be read.' };
  }
  if (status === 401) {
    return { kind: 'failed', status, message: 'Your session has ended. Sign in again, then upload the files again.' };
  }
  const rejected = ImportRejectedSchema.safeParse(body);
  if (status >= 400 && status < 500 && rejected.success) {
    return { kind: 'rejected', status, rejection: rejected.data };
  }
  // A generic error answer (a limit hit before the import's own checks) names no file.
  const generic = ImportRejectedSchema.omit({ fileName: true }).safeParse(body);
  if (status >= 400 && status < 500 && generic.success) {
    return { kind: 'rejected', status, rejection: { ...generic.data, fileName: null } };
  }
  const message = generic.success ? generic.data.message : `The server answered with HTTP ${status}.`;
  return { kind: 'failed', status, message };
}

/** The sentence for a refused upload: the human sentence of its code, and the server's own words when they say more. */
export function rejectionSentences(rejection: Pick<ImportRejected, 'error' | 'message'>): { reason: string; detail: string | null } {
  const reason = importErrorMessage(rejection.error);
  const detail = rejection.message && rejection.message !== reason ? rejection.message : null;
  return { reason, detail };
}

/**
 * The multipart body: the form fields first (the server then knows the patient before the files
 * stream in), then one part named `files` per file. Unset fields are left out.
 */
export function uploadBody(files: readonly File[], fields: UploadFields = {}): FormData {
  const body = new FormData();
  const F = IMPORT_FORM_FIELDS;
  if (fields.patientId) body.append(F.patientId, fields.patientId);
  if (fields.patientName) body.append(F.patientName, fields.patientName);
  if (fields.birthDate) body.append(F.birthDate, fields.birthDate);
  if (fields.sex) body.append(F.sex, fields.sex);
  if (fields.confirmPatientIdentity) body.append(F.confirmPatientIdentity, 'true');
  if (fields.confirmOtherUltrasound) body.append(F.confirmOtherUltrasound, 'true');
  for (const file of files) body.append(IMPORT_FILE_FIELD, file, file.name);
  return body;
}

/**
 * Sends the files as one multipart request with XMLHttpRequest, which reports the bytes sent,
 * with the same address and Authorization header as the API client.
 */
export function startUpload(
  api: ApiClient,
  files: readonly File[],
  fields: UploadFields,
  onProgress: (progress: UploadProgress) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const body = uploadBody(files, fields);

  const done = new Promise<UploadOutcome>((resolve) => {
    let total = 0;
    xhr.upload.addEventListener('progress', (event) => {
      if (!event.lengthComputable) return;
      total = event.total;
      onProgress({ loaded: event.loaded, total });
    });
    xhr.upload.addEventListener('load', () => {
      // Every byte is sent: the server now checks the files' headers before it answers.
      const sent = Math.max(total, 1);
      onProgress({ loaded: sent, total: sent });
    });
    xhr.addEventListener('load', () => resolve(outcomeOf(xhr.status, xhr.responseText)));
    xhr.addEventListener('error', () => resolve({ kind: 'network' }));
    xhr.addEventListener('timeout', () => resolve({ kind: 'network' }));
    xhr.addEventListener('abort', () => resolve({ kind: 'aborted' }));
  });

  xhr.open('POST', api.url('imports'));
  xhr.setRequestHeader('Accept', 'application/json');
  const authorization = api.authorization();
  if (authorization) xhr.setRequestHeader('Authorization', authorization);
  xhr.send(body);
  return { done, abort: () => xhr.abort() };
}
