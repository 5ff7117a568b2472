import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signCdnUrl } from '../../../src/server/storage/cdn-url.ts';

describe('CDN URLs for frame chunks (issue 27)', () => {
  const secret = 'a'.repeat(32);
  const now = Date.UTC(2026, 10, 27, 5, 0, 0, 700);

  it('binds the exact object path and the expiry, in whole seconds', () => {
    const { url, expiresAt } = signCdnUrl('https://frames.example.org', secret, 'demo/rec-1/v2/bmode/0003.pack', 300, now);
    const expires = Math.floor(now / 1000) + 300;
    const signature = createHmac('sha256', secret).update(`${expires}\n/demo/rec-1/v2/bmode/0003.pack`).digest('base64url');
    expect(url).toBe(`https://frames.example.org/demo/rec-1/v2/bmode/0003.pack?e=${expires}&s=${signature}`);
    expect(expiresAt.getTime()).toBe(expires * 1000);
    // Another chunk, record, tenant or lifetime: another signature.
    const others = ['demo/rec-1/v2/bmode/0004.pack', 'demo/rec-2/v2/bmode/0003.pack', 'acme/rec-1/v2/bmode/0003.pack'].map((key) => signCdnUrl('https://frames.example.org', secret, key, 300, now).url.split('s=')[1]);
    expect(new Set([signature, ...others, signCdnUrl('https://frames.example.org', secret, 'demo/rec-1/v2/bmode/0003.pack', 301, now).url.split('s=')[1]]).size).toBe(5);
  });

  it("signs the CDN base's own path as part of the object's", () => {
    const { url } = signCdnUrl('https://cdn.example.org/ivus/', secret, 'demo/r/v1/bmode/0000.pack', 60, now);
    const expires = Math.floor(now / 1000) + 60;
    expect(url).toBe(`https://cdn.example.org/ivus/demo/r/v1/bmode/0000.pack?e=${expires}&s=${createHmac('sha256', secret).update(`${expires}\n/ivus/demo/r/v1/bmode/0000.pack`).digest('base64url')}`);
  });

  it('refuses unsafe keys and lifetimes outside 1 s to 7 days', () => {
    for (const key of ['../acme/r/v1/bmode/0000.pack', 'demo//r', '', 'demo/r?x=1']) expect(() => signCdnUrl('https://cdn.example.org', secret, key, 60, now), key).toThrow(/unsafe storage key/);
    for (const seconds of [0, 604_801, 1.5]) expect(() => signCdnUrl('https://cdn.example.org', secret, 'demo/r', seconds, now), String(seconds)).toThrow(/1 s to 7 days/);
  });
});
