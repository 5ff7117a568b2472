import { describe, expect, it } from 'vitest';
import { FRAMES_CACHE_PREFIX, framesCacheName, isFramesCache } from '../../../src/web/sw/messages.ts';
import { fakeIdToken } from '../fake-token.ts';

describe('frames cache per user', () => {
  const bearer = (claims: Record<string, unknown>) => `Bearer ${fakeIdToken(claims)}`;

  it('gives each user of each issuer a cache of their own', () => {
    const dana = framesCacheName(bearer({ iss: 'http://demo.localhost:8080/idp', sub: 'u1' }));
    const robin = framesCacheName(bearer({ iss: 'http://demo.localhost:8080/idp', sub: 'u2' }));
    const acmeU1 = framesCacheName(bearer({ iss: 'http://acme.localhost:8080/idp', sub: 'u1' }));
    expect(dana).toBe(`${FRAMES_CACHE_PREFIX}http://demo.localhost:8080/idp u1`);
    expect(new Set([dana, robin, acmeU1]).size).toBe(3);
    // The same user's token again (a refresh) finds the same cache.
    expect(framesCacheName(bearer({ iss: 'http://demo.localhost:8080/idp', sub: 'u1', exp: 99 }))).toBe(dana);
  });

  it('has no cache for a request without a readable token (it goes to the network)', () => {
    for (const authorization of [null, '', 'Bearer', 'Basic dTpw', 'Bearer not-a-jwt', bearer({ sub: 'u1' }), bearer({ iss: 'x', sub: 7 })]) {
      expect(framesCacheName(authorization), String(authorization)).toBeNull();
    }
  });

  it('knows its caches of every version, and nothing else', () => {
    expect(isFramesCache('ivus-frames-v1')).toBe(true);
    expect(isFramesCache(`${FRAMES_CACHE_PREFIX}iss sub`)).toBe(true);
    expect(isFramesCache('workbox-precache')).toBe(false);
  });
});
