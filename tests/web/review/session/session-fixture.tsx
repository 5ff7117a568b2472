import type { ApiClient } from '../../../../src/web/api/api-client.ts';
import { fakeApi } from '../../render.tsx';

/** An API that has nothing (404 to everything): a review session around a toolbar or panels asks for its annotations. */
export function quietApi(): ApiClient {
  return fakeApi(() => Response.json({ error: 'not_found', message: 'none' }, { status: 404 })).client;
}
