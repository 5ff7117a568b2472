import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, buildApiUrl, createApiClient } from '../../../src/web/api/api-client.ts';

describe('API addresses', () => {
  it('are /api/{tenant}/{resource}[/pathParams][?queryParams]', () => {
    expect(buildApiUrl('demo', 'patients')).toBe('/api/demo/patients');
    expect(buildApiUrl('demo', 'patients', ['P 1/2', 'records'])).toBe('/api/demo/patients/P%201%2F2/records');
    expect(buildApiUrl('demo', 'patients', [], { page: 2, search: 'Ann & Bo', empty: '', none: undefined })).toBe(
      '/api/demo/patients?page=2&search=Ann+%26+Bo',
    );
  });

  it('take server-given paths relative to the tenant root', () => {
    expect(buildApiUrl('demo', 'records/r1/previews/bmode')).toBe('/api/demo/records/r1/previews/bmode');
  });
});

function clientWith(response: Response | (() => Promise<Response>), credentials = { idToken: 'id.token.sig', tokenType: 'Bearer' }) {
  const fetchMock = vi.fn<typeof fetch>(typeof response === 'function' ? response : async () => response);
  const onUnauthorized = vi.fn();
  const client = createApiClient({ tenant: 'demo', getCredentials: () => credentials, onUnauthorized, fetch: fetchMock });
  return { client, fetchMock, onUnauthorized };
}

const Schema = z.object({ ok: z.boolean() });

describe('API client', () => {
  it('sends the id token with its token type and asks for JSON', async () => {
    const { client, fetchMock } = clientWith(Response.json({ ok: true }));
    await expect(client.get(Schema, 'patients', { query: { page: 1 } })).resolves.toEqual({ ok: true });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/demo/patients?page=1');
    expect(init?.method).toBe('GET');
    expect(init?.headers).toEqual({ Accept: 'application/json', Authorization: 'Bearer id.token.sig' });
  });

  it('defaults the token type to Bearer', async () => {
    const { client, fetchMock } = clientWith(Response.json({ ok: true }), { idToken: 'tok', tokenType: '' });
    await client.get(Schema, 'patients');
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ Authorization: 'Bearer tok' });
  });

  it('sends a body as JSON', async () => {
    const { client, fetchMock } = clientWith(Response.json({ ok: true }));
    await client.request({ method: 'POST', resource: 'users', body: { email: 'a@b.c' }, schema: Schema });
    const init = fetchMock.mock.calls[0]?.[1];
    expect(init?.body).toBe('{"email":"a@b.c"}');
    expect(init?.headers).toMatchObject({ 'Content-Type': 'application/json' });
  });

  it('turns an error answer into an ApiError with its status and message', async () => {
    const { client } = clientWith(Response.json({ error: 'bad_request', message: 'page must be 1 or more' }, { status: 400 }));
    const failure = client.get(Schema, 'patients');
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 400, code: 'bad_request', message: 'page must be 1 or more' });
  });

  it('ends the session on 401', async () => {
    const { client, onUnauthorized } = clientWith(Response.json({ error: 'unauthorized', message: 'Sign in again.' }, { status: 401 }));
    await expect(client.get(Schema, 'patients')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('refuses an answer that does not match the schema', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { client } = clientWith(Response.json({ ok: 'yes' }));
    await expect(client.get(Schema, 'patients')).rejects.toMatchObject({ code: 'invalid_response' });
  });

  it('says so when the server cannot be reached', async () => {
    const { client } = clientWith(async () => Promise.reject(new TypeError('Failed to fetch')));
    await expect(client.get(Schema, 'patients')).rejects.toMatchObject({ status: 0, code: 'network_error' });
  });

  it('fetches images as blobs with the same authorization', async () => {
    const { client, fetchMock } = clientWith(new Response('png', { headers: { 'Content-Type': 'image/png' } }));
    const blob = await client.getBlob('records/r1/previews/bmode');
    expect(await blob.text()).toBe('png');
    expect(fetchMock.mock.calls[0]?.[0]).toBe('/api/demo/records/r1/previews/bmode');
    expect(fetchMock.mock.calls[0]?.[1]?.headers).toMatchObject({ Authorization: 'Bearer id.token.sig' });
  });
});
