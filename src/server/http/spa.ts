import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/**
 * Called directly on the root instance (not registered as a plugin): the not-found handler
 * it sets must cover every route. Serves the built single-page app: hashed assets cached forever, index.html never cached,
 * and index.html for every other GET that is not API or identity-provider traffic, so deep
 * links work. Without a build (server tests), only the API is served. The security headers (CSP and
 * the rest) are on every answer, these included: http/security-headers.ts.
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
    // Source maps are not built (vite.config.ts); should one be there, it is not served to the public.
    allowedPath: (pathname) => !pathname.endsWith('.map'),
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
