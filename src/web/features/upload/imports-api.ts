import { ImportListSchema, ImportSummarySchema, type ImportList, type ImportSummary } from '../../../domain/imports.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { startUpload, type UploadHandle, type UploadProgress } from './upload-request.ts';

/** The import calls of the API, each answer checked against the shared schema. */
export interface ImportsApi {
  /** The tenant's recent imports, newest first. */
  list(signal?: AbortSignal): Promise<ImportList>;
  get(importId: string, signal?: AbortSignal): Promise<ImportSummary>;
  /** Sends the files with upload progress (XMLHttpRequest). */
  upload(files: readonly File[], onProgress: (progress: UploadProgress) => void): UploadHandle;
}

export function importsApi(api: ApiClient): ImportsApi {
  return {
    list: (signal) => api.get(ImportListSchema, 'imports', { signal }),
    get: (importId, signal) => api.get(ImportSummarySchema, 'imports', { pathParams: [importId], signal }),
    upload: (files, onProgress) => startUpload(api, files, onProgress),
  };
}
