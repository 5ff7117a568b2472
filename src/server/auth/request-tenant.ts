import type { FastifyRequest } from 'fastify';
import { tenantFromHost } from '../../domain/tenant.ts';

/** The tenant named by the request's host (first label of the host name), or null. */
export function requestTenantId(request: FastifyRequest): string | null {
  return tenantFromHost(request.host);
}
