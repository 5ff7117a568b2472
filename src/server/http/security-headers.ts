/**
 * The same security headers on every answer (issue 24): the SPA's index.html (by any path, `/index.html`
 * included), its static files, the API, and the identity provider's own pages, which oidc-provider
 * writes itself (a hijacked reply that Fastify's onSend hooks never see). So they are set on the raw
 * response as soon as the request arrives; a route may still set a stricter policy of its own (the
 * provider's sign-in pages do).
 * - CSP with frame-ancestors 'none': no other page may frame ours (clickjacking). The one exception is
 *   /silent-renew, which the app itself loads in a hidden same-origin frame to renew its tokens.
 * - nosniff: a file is only ever read as the type it is served as.
 * - Referrer-Policy same-origin: no address of ours (with record ids in it) goes to another site.
 * - HSTS when the request came over HTTPS (directly, or through a trusted proxy's X-Forwarded-Proto).
 */
import type { FastifyInstance } from 'fastify';

const policy = (frameAncestors: string, connectSources: readonly string[] = []) =>
  [
    "default-src 'self'",
    // 'wasm-unsafe-eval': the frame decode workers compile the codecs' WebAssembly (fetched from
    // 'self'); it allows WebAssembly compilation only, not eval() or inline scripts.
    "script-src 'self' 'wasm-unsafe-eval'",
    // Chakra UI (emotion) writes its styles into <style> elements at run time; the provider's pages have a <style>.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' blob: data:",
    // With FRAMES_FROM_STORE the page and its service worker also fetch frame chunks from the object store.
    ["connect-src 'self'", ...connectSources].join(' '),
    "worker-src 'self' blob:",
    `frame-ancestors ${frameAncestors}`,
    "form-action 'self'",
    "base-uri 'self'",
    "object-src 'none'",
  ].join('; ');

export const CONTENT_SECURITY_POLICY = policy("'none'");
/** The page the app frames itself, to renew its tokens silently. */
export const SILENT_RENEW_PATH = '/silent-renew';
const SILENT_RENEW_POLICY = policy("'self'");
export const HSTS = 'max-age=31536000';

/** `connectSources`: origins besides our own the page may fetch from (the object store's, when it delivers frames). */
export function installSecurityHeaders(app: FastifyInstance, connectSources: readonly string[] = []): void {
  const contentPolicy = connectSources.length ? policy("'none'", connectSources) : CONTENT_SECURITY_POLICY;
  const silentRenewPolicy = connectSources.length ? policy("'self'", connectSources) : SILENT_RENEW_POLICY;
  app.addHook('onRequest', async (request, reply) => {
    const framedByUs = request.url.split('?')[0] === SILENT_RENEW_PATH;
    const headers: Record<string, string> = {
      'content-security-policy': framedByUs ? silentRenewPolicy : contentPolicy,
      'x-frame-options': framedByUs ? 'SAMEORIGIN' : 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'same-origin',
    };
    if (request.protocol === 'https') headers['strict-transport-security'] = HSTS;
    // On the raw response: kept whoever writes the answer (Fastify, @fastify/static, oidc-provider).
    for (const [name, value] of Object.entries(headers)) reply.raw.setHeader(name, value);
  });
}
