import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clinicianAuthorization, createTestServer, hostOf, postgresUnavailable, type TestServer } from './test-server.ts';

function findFiles(dir: string, name: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith(name));
}

describe.skipIf(postgresUnavailable)('record previews', () => {
  let server: TestServer;
  let authorization: string;
  let previewUrl: string;
  let acmeRecordId: string;
  beforeAll(async () => {
    server = await createTestServer();
    authorization = await clinicianAuthorization(server, 'demo');
    const records = await server.app.inject({ url: '/api/demo/patients/DEM-001/records', headers: { host: hostOf('demo'), authorization } });
    previewUrl = `/api/demo/${records.json().records[0].bmodePreview}`;
    const acmeAuth = await clinicianAuthorization(server, 'acme');
    const acme = await server.app.inject({ url: '/api/acme/patients/ACM-001/records', headers: { host: hostOf('acme'), authorization: acmeAuth } });
    acmeRecordId = acme.json().records[0].recordId;
  });
  afterAll(() => server.close());

  const get = (url: string, headers: Record<string, string> = {}) =>
    server.app.inject({ url, headers: { host: hostOf('demo'), authorization, ...headers } });

  it('serves a grayscale PNG thumbnail of the record, generated once and then kept', async () => {
    expect(previewUrl).toMatch(/^\/api\/demo\/records\/[0-9a-f-]{36}\/previews\/bmode\?v=/);
    const first = await get(previewUrl);
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    const png = first.rawPayload;
    expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(256); // width
    expect(png.readUInt32BE(20)).toBe(256); // height
    expect(findFiles(server.storeDir, 'preview-bmode.png')).toHaveLength(1);
    const second = await get(previewUrl);
    expect(second.rawPayload.equals(png)).toBe(true);
  });

  it('lets the browser keep previews: strong ETag, immutable, 304 on revalidation', async () => {
    const first = await get(previewUrl);
    expect(first.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[^"]+"$/);
    const again = await get(previewUrl, { 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it("answers 404 for another tenant's record and 400 for malformed requests", async () => {
    expect((await get(`/api/demo/records/${acmeRecordId}/previews/bmode`)).statusCode).toBe(404);
    const badId = await get('/api/demo/records/not-a-record/previews/bmode');
    expect(badId.statusCode).toBe(400);
    expect(badId.json().message).toMatch(/recordId/);
    const badSeries = await get(`/api/demo/records/${acmeRecordId}/previews/lmode`);
    expect(badSeries.statusCode).toBe(400);
    expect(badSeries.json().message).toMatch(/series must be bmode or angio/);
  });

  it('refuses previews without a valid token', async () => {
    const response = await server.app.inject({ url: previewUrl, headers: { host: hostOf('demo') } });
    expect(response.statusCode).toBe(401);
    expect(path.basename(previewUrl)).toContain('bmode');
  });
});
