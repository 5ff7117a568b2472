/**
 * X-Forwarded-For behind TRUST_PROXY (issue 24): the address the sign-in throttle and the audit see
 * is the one the last trusted proxy saw, never an entry the client wrote itself.
 */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/server/config.ts';
import { fastifyTrustProxy } from '../../../src/server/http/proxy-trust.ts';

/** The client address and protocol the server (configured as app.ts does) reads from a request through `peer`. */
async function seenBy(trustProxy: string, peer: string, headers: Record<string, string>) {
  const app = Fastify({ trustProxy: fastifyTrustProxy(loadConfig({ TRUST_PROXY: trustProxy }).proxyTrust) });
  app.get('/', async (request) => ({ ip: request.ip, protocol: request.protocol }));
  const response = await app.inject({ url: '/', headers, remoteAddress: peer });
  await app.close();
  return response.json() as { ip: string; protocol: string };
}

describe('which forwarded address is believed', () => {
  // HAProxy appends the address it saw; the client wrote "6.6.6.6" itself.
  const forged = { 'x-forwarded-for': '6.6.6.6, 203.0.113.9', 'x-forwarded-proto': 'https' };

  it('TRUST_PROXY=true trusts the one proxy in front only, not the left-most entry', async () => {
    expect(await seenBy('true', '10.0.0.2', forged)).toEqual({ ip: '203.0.113.9', protocol: 'https' });
  });

  it('a number of hops takes the address the last of them saw', async () => {
    expect((await seenBy('2', '10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.0.0.9' })).ip).toBe('203.0.113.9');
  });

  it('proxy addresses are trusted only when the connection comes from one of them', async () => {
    expect((await seenBy('10.0.0.0/8', '10.0.0.2', { 'x-forwarded-for': '6.6.6.6, 203.0.113.9, 10.1.2.3' })).ip).toBe('203.0.113.9');
    // A client reaching the server directly cannot name its own address.
    expect(await seenBy('10.0.0.0/8', '198.51.100.4', forged)).toEqual({ ip: '198.51.100.4', protocol: 'http' });
  });

  it('without TRUST_PROXY the headers are ignored', async () => {
    expect(await seenBy('false', '198.51.100.4', forged)).toEqual({ ip: '198.51.100.4', protocol: 'http' });
  });
});
