/**
 * The same security headers on every page and file (issue 24): `/index.html`, deep links, static
 * files and the identity provider's own pages (written by oidc-provider, outside Fastify's reply)
 * carried no CSP, frame-ancestors or nosniff; HSTS over HTTPS; no source maps served.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config.ts';
import { KeyEncryptionKey } from '../../../src/server/crypto/key-encryption-key.ts';
import { unlockServerSecrets } from '../../../src/server/db/secrets-startup.ts';
import { DEMO_TENANTS } from '../../../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../../../src/server/seed/seed.ts';
import { appOnDatabase, hostOf, PORT, postgresUnavailable, testDatabase, type TestServer } from '../test-server.ts';

/** A test server with a (tiny) SPA build to serve, as a real deployment has. */
async function serverWithBuild(webRoot: string, env: Record<string, string> = {}): Promise<TestServer> {
  const kek = KeyEncryptionKey.generate().encode();
  const config = { ...loadConfig({ NODE_ENV: 'test', PORT: String(PORT), LOG_LEVEL: 'silent', IMAGING_WORKERS: '0', KEY_ENCRYPTION_KEY: kek, ...env }), webRoot };
  const database = await testDatabase();
  for (const tenant of DEMO_TENANTS) await seedTenant(database.db, tenant);
  await unlockServerSecrets(config, database.db);
  return appOnDatabase(config, database);
}

function expectSecurityHeaders(response: LightMyRequestResponse, what: string) {
  const csp = String(response.headers['content-security-policy'] ?? '');
  expect(csp, what).toContain("frame-ancestors 'none'");
  expect(csp, what).toContain('default-src');
  expect(response.headers['x-content-type-options'], what).toBe('nosniff');
  expect(response.headers['referrer-policy'], what).toMatch(/^(same-origin|no-referrer)$/);
}

describe.skipIf(postgresUnavailable)('security headers on every page and file', () => {
  let server: TestServer;
  let webRoot: string;
  beforeAll(async () => {
    webRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-web-'));
    fs.mkdirSync(path.join(webRoot, 'assets'));
    fs.writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><script type="module" src="/assets/app-1.js"></script>');
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-1.js'), 'console.log(1)\n//# sourceMappingURL=app-1.js.map');
    fs.writeFileSync(path.join(webRoot, 'assets', 'app-1.js.map'), '{"version":3,"sources":["src/web/secret.ts"]}');
    fs.writeFileSync(path.join(webRoot, 'sw.js'), 'self.addEventListener("fetch", () => {})');
    server = await serverWithBuild(webRoot, { TRUST_PROXY: 'true' });
  });
  afterAll(async () => {
    await server.close();
    fs.rmSync(webRoot, { recursive: true, force: true });
  });

  const get = (url: string, headers: Record<string, string> = {}) => server.app.inject({ url, headers: { host: hostOf('demo'), ...headers } });

  it('the app (/, /index.html, a deep link), its static files and the API', async () => {
    for (const url of ['/', '/index.html', '/patients/P1/records', '/assets/app-1.js', '/sw.js', '/api/demo/patients', '/healthz']) {
      const response = await get(url);
      expect(response.statusCode, url).toBeLessThan(500);
      expectSecurityHeaders(response, url);
    }
  });

  it("the identity provider's own pages, those oidc-provider writes itself included", async () => {
    // The sign-out confirmation and an error page are rendered by oidc-provider, outside Fastify's reply.
    for (const url of ['/idp/session/end', '/idp/auth', '/idp/.well-known/openid-configuration', '/idp/jwks']) {
      const response = await get(url);
      expect(response.statusCode, url).toBeLessThan(500);
      expectSecurityHeaders(response, url);
    }
    expect((await get('/idp/session/end')).headers['content-type']).toMatch(/text\/html/);
  });

  it('lets only the silent-renew page be framed, and only by the app itself', async () => {
    const response = await get('/silent-renew?code=x&state=y');
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'self'");
    expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect((await get('/patients')).headers['x-frame-options']).toBe('DENY');
  });

  it('sends HSTS only when the request came over HTTPS (here through the trusted proxy)', async () => {
    expect((await get('/', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toMatch(/max-age=\d{7,}/);
    expect((await get('/idp/session/end', { 'x-forwarded-proto': 'https' })).headers['strict-transport-security']).toMatch(/max-age=/);
    expect((await get('/')).headers['strict-transport-security']).toBeUndefined();
  });

  it("lets the page's frame decode workers compile WebAssembly, and allows no eval() or inline script", async () => {
    for (const url of ['/', '/assets/app-1.js']) {
      const scriptSrc = String((await get(url)).headers['content-security-policy']).split('; ').find((d) => d.startsWith('script-src'));
      expect(scriptSrc, url).toBe("script-src 'self' 'wasm-unsafe-eval'");
    }
  });

  it('does not serve source maps', async () => {
    const response = await get('/assets/app-1.js.map');
    expect(response.statusCode).toBe(404);
    expect(response.body).not.toContain('secret.ts');
  });
});
