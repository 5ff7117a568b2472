import { ImportListSchema, ImportSummarySchema, type ImportList, type ImportSummary } from '../../../domain/imports.ts';
import { PatientPageSchema, type PatientPage } from '../../../domain/patients.ts';
import type { ApiClient } from '../../api/api-client.ts';
import { startUpload, type UploadFields, type UploadHandle, type UploadProgress } from './upload-request.ts';

/** Patients offered when choosing the patient of files without a Patient ID. */
export const PATIENT_SEARCH_PAGE_SIZE = 10;

/** The import calls of the API, each answer checked against the shared schema. */
export interface ImportsApi {
  /** The tenant's recent imports, newest first. */
  list(signal?: AbortSignal): Promise<ImportList>;
  get(importId: string, signal?: AbortSignal): Promise<ImportSummary>;
  /** Sends the files, with the form fields, with upload progress (XMLHttpRequest). */
  upload(files: readonly File[], fields: UploadFields, onProgress: (progress: UploadProgress) => void): UploadHandle;
  /** Existing patients whose ID or name contains `search` (the patients list's own query). */
  searchPatients(search: string, signal?: AbortSignal): Promise<PatientPage>;
}

export function importsApi(api: ApiClient): ImportsApi {
  return {
    list: (signal) => api.get(ImportListSchema, 'imports', { signal }),
    get: (importId, signal) => api.get(ImportSummarySchema, 'imports', { pathParams: [importId], signal }),
    upload: (files, fields, onProgress) => startUpload(api, files, fields, onProgress),
    searchPatients: (search, signal) =>
      api.get(PatientPageSchema, 'patients', { query: { search, pageSize: PATIENT_SEARCH_PAGE_SIZE, sort: 'name', order: 'asc' }, signal }),
  };
}
