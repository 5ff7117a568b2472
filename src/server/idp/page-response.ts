import type { FastifyReply, FastifyRequest } from 'fastify';
import { requestTenantId } from '../auth/request-tenant.ts';
import type { TenantAuth, TenantDirectory } from '../auth/tenant-directory.ts';
import type { Db } from '../db/client.ts';
import type { ProviderRegistry } from './provider.ts';

export type Deps = { db: Db; tenants: TenantDirectory; providers: ProviderRegistry };

/** Security headers for the provider's HTML pages. */
export function sendPage(reply: FastifyReply, status: number, html: string) {
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-frame-options', 'DENY')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'")
    .send(html);
}

/** The request's tenant when it signs in with the embedded provider; null otherwise. */
export async function tenantOf(deps: Deps, request: FastifyRequest): Promise<TenantAuth | null> {
  const tenantId = requestTenantId(request);
  const tenant = tenantId ? await deps.tenants.get(tenantId) : null;
  return tenant?.embedded ? tenant : null;
}
