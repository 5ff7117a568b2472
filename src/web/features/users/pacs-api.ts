import { z } from 'zod';
import { PacsConnectionListSchema, PacsConnectionSchema, PacsTestResultSchema, type PacsConnection, type PacsConnectionInput, type PacsConnectionList, type PacsTestResult } from '../../../domain/pacs.ts';
import type { ApiClient } from '../../api/api-client.ts';

/** DELETE answers 204 without a body. */
const NoContentSchema = z.null();

/** The administrators' PACS connection calls (src/domain/pacs.ts), each answer checked against its schema. */
export interface PacsAdminApi {
  list(signal?: AbortSignal): Promise<PacsConnectionList>;
  create(input: PacsConnectionInput): Promise<PacsConnection>;
  /** Leaving out `auth.password` / `auth.token` keeps the stored one. */
  update(id: string, input: PacsConnectionInput): Promise<PacsConnection>;
  remove(id: string): Promise<void>;
  /** A connection not saved yet, with the form's values. */
  test(input: PacsConnectionInput): Promise<PacsTestResult>;
  /** A saved connection, with its stored credentials. */
  testSaved(id: string): Promise<PacsTestResult>;
}

const CONNECTIONS = 'pacs/connections';

export function pacsAdminApi(api: ApiClient): PacsAdminApi {
  return {
    list: (signal) => api.get(PacsConnectionListSchema, CONNECTIONS, { signal }),
    create: (body) => api.request({ resource: CONNECTIONS, method: 'POST', body, schema: PacsConnectionSchema }),
    update: (id, body) => api.request({ resource: CONNECTIONS, pathParams: [id], method: 'PUT', body, schema: PacsConnectionSchema }),
    remove: async (id) => {
      await api.request({ resource: CONNECTIONS, pathParams: [id], method: 'DELETE', schema: NoContentSchema });
    },
    test: (body) => api.request({ resource: CONNECTIONS, pathParams: ['test'], method: 'POST', body, schema: PacsTestResultSchema }),
    testSaved: (id) => api.request({ resource: CONNECTIONS, pathParams: [id, 'test'], method: 'POST', schema: PacsTestResultSchema }),
  };
}
