import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHostPolicy } from '../../src/server/http/host-policy.ts';
import { clinicianAuthorization, createTestServer, hostOf, postgresUnavailable, type TestServer } from './test-server.ts';

describe('host policy', () => {
  it('reads the tenant label, the domain and the port from PUBLIC_URL_TEMPLATE', () => {
    const local = createHostPolicy('http://{tenant}.localhost:8080');
    expect(local('demo.localhost:8080')).toEqual({ kind: 'tenant', tenantId: 'demo' });
    expect(local('DEMO.LOCALHOST:8080')).toEqual({ kind: 'tenant', tenantId: 'demo' });
    expect(local('localhost:8080')).toEqual({ kind: 'loopback' });
    expect(local('127.0.0.1:8080')).toEqual({ kind: 'loopback' });
    for (const foreign of ['demo.localhost', 'demo.localhost:8081', 'demo.evil.example:8080', 'evil.example', 'demo.localhost.evil.example:8080', 'a.b.localhost:8080', '-x.localhost:8080', '', undefined]) {
      expect(local(foreign), String(foreign)).toEqual({ kind: 'foreign' });
    }
    const proxied = createHostPolicy('https://{tenant}.ivus.example.org');
    expect(proxied('acme.ivus.example.org')).toEqual({ kind: 'tenant', tenantId: 'acme' });
    expect(proxied('acme.ivus.example.org:443')).toEqual({ kind: 'tenant', tenantId: 'acme' });
    expect(proxied('acme.ivus.example.org:8443')).toEqual({ kind: 'foreign' });
    expect(proxied('acme.ivusXexample.org')).toEqual({ kind: 'foreign' });
    expect(proxied('acme.localhost')).toEqual({ kind: 'foreign' });
  });
});

describe.skipIf(postgresUnavailable)('foreign hosts are refused by the API, the identity provider and the app alike', () => {
  let server: TestServer;
  let authorization: string;

  beforeAll(async () => {
    server = await createTestServer();
    authorization = await clinicianAuthorization(server, 'demo');
  });
  afterAll(() => server.close());

  const get = (url: string, host: string) => server.app.inject({ method: 'GET', url, headers: { host, authorization } });

  it('answers 421 and nothing else to a DNS-rebinding host, even with a valid token', async () => {
    for (const host of ['demo.evil.example', 'demo.evil.example:8080', 'demo.localhost:9999', 'evil.example']) {
      for (const url of ['/api/demo/patients', '/api/auth-info?tenantId=demo', '/idp/.well-known/openid-configuration', '/', '/patients/DEM-001/records']) {
        const response = await get(url, host);
        expect(response.statusCode, `${host}${url}`).toBe(421);
        expect(response.json(), `${host}${url}`).toEqual({ error: 'misdirected_request', message: expect.stringContaining('does not answer for the host') });
        expect(response.body).not.toMatch(/DEM-0|issuer|authorization_endpoint|<html/i);
      }
    }
  });

  it('still serves the tenant hosts of the template, the health check on any host, and sends bare loopback to the default tenant', async () => {
    expect((await get('/api/demo/patients', hostOf('demo'))).statusCode).toBe(200);
    const discovery = await get('/idp/.well-known/openid-configuration', hostOf('demo'));
    expect(discovery.statusCode).toBe(200);
    expect(discovery.json().issuer).toBe('http://demo.localhost:8080/idp');
    expect((await get('/healthz', '10.0.0.7')).statusCode).toBe(200);
    const redirect = await get('/patients', 'localhost:8080');
    expect(redirect.statusCode).toBe(302);
    expect(redirect.headers.location).toBe('http://demo.localhost:8080/patients');
    expect((await get('/api/demo/patients', 'localhost:8080')).statusCode).toBe(421);
  });
});
