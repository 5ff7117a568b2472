import type { FastifyError, FastifyInstance } from 'fastify';

const STATUS_CODES: Record<number, string> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'too_many_requests',
};

/**
 * The one error handler: 4xx answers say what was wrong; 5xx answers say nothing about
 * internals (the details go to the log with the request id). The 404 handler belongs to
 * http/spa.ts, which also serves the app's deep links.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply.code(status).send({ error: 'internal_error', message: `Something went wrong on our side (request ${request.id}).` });
    }
    const code = STATUS_CODES[status] ?? 'bad_request';
    return reply.code(status).send({ error: code, message: error.message });
  });
}
