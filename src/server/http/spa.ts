import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Chakra UI (emotion) writes its styles into <style> elements at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' blob: data:",
  "connect-src 'self'",
  "worker-src 'self' blob:",
  // The silent-renew page runs in a same-origin iframe.
  "frame-ancestors 'self'",
  "form-action 'self'",
  "base-uri 'self'",
  "object-src 'none'",
].join('; ');

/**
 * Called directly on the root instance (not registered as a plugin): the not-found handler
 * it sets must cover every route. Serves the built single-page app: hashed assets cached forever, index.html never cached,
 * and index.html for every other GET that is not API or identity-provider traffic, so deep
 * links work. Without a build (server tests), only the API is served.
 */
export async function spaRoutes(app: FastifyInstance, deps: { webRoot: string }): Promise<void> {
  const notFound = (method: string, pathname: string) => ({ error: 'not_found', message: `No such address: ${method} ${pathname}` });
  const indexPath = path.join(deps.webRoot, 'index.html');
  if (!fs.existsSync(indexPath)) {
    app.log.warn({ webRoot: deps.webRoot }, 'no SPA build found: serving the API only (run npm run build)');
    app.setNotFoundHandler((request, reply) => reply.code(404).send(notFound(request.method, request.url.split('?')[0] ?? '/')));
    return;
  }
  await app.register(fastifyStatic, {
    root: deps.webRoot,
    index: false,
    wildcard: true,
    setHeaders(res, filePath) {
      if (filePath.includes(`${path.sep}assets${path.sep}`)) {
        res.header('cache-control', 'public, max-age=31536000, immutable');
      } else {
        res.header('cache-control', 'no-cache');
      }
    },
  });
  const indexHtml = fs.readFileSync(indexPath);

  const sendIndex = (reply: FastifyReply) =>
    reply
      .header('content-type', 'text/html; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('content-security-policy', CONTENT_SECURITY_POLICY)
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'same-origin')
      .send(indexHtml);

  app.get('/', (_request, reply) => sendIndex(reply));
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    const isAppRoute =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      !pathname.startsWith('/idp/') &&
      !path.extname(pathname);
    if (!isAppRoute) return reply.code(404).send(notFound(request.method, pathname));
    return sendIndex(reply);
  });
}
