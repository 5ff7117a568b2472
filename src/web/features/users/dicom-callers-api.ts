import { z } from 'zod';
import { DicomCallerListSchema, DicomCallerSchema, type DicomCaller, type DicomCallerInput, type DicomCallerList } from '../../../domain/dicom-callers.ts';
import type { ApiClient } from '../../api/api-client.ts';

/** DELETE answers 204 without a body. */
const NoContentSchema = z.null();

/** The administrators' calls for the senders the DICOM receiver accepts (src/domain/dicom-callers.ts). */
export interface DicomCallersApi {
  list(signal?: AbortSignal): Promise<DicomCallerList>;
  create(input: DicomCallerInput): Promise<DicomCaller>;
  update(id: string, input: DicomCallerInput): Promise<DicomCaller>;
  remove(id: string): Promise<void>;
}

const CALLERS = 'pacs/dicom-callers';

export function dicomCallersApi(api: ApiClient): DicomCallersApi {
  return {
    list: (signal) => api.get(DicomCallerListSchema, CALLERS, { signal }),
    create: (body) => api.request({ resource: CALLERS, method: 'POST', body, schema: DicomCallerSchema }),
    update: (id, body) => api.request({ resource: CALLERS, pathParams: [id], method: 'PUT', body, schema: DicomCallerSchema }),
    remove: async (id) => {
      await api.request({ resource: CALLERS, pathParams: [id], method: 'DELETE', schema: NoContentSchema });
    },
  };
}
