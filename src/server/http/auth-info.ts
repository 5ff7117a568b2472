import type { FastifyInstance } from 'fastify';
import { AuthInfoQuerySchema } from '../../domain/auth-info.ts';
import { authInfoFor, type TenantDirectory } from '../auth/tenant-directory.ts';
import { NotFoundError, parseOrThrow } from './validation.ts';

/** `GET /api/auth-info?tenantId={tenant}`: public, tells the browser how to sign in. */
export async function authInfoRoutes(app: FastifyInstance, deps: { tenants: TenantDirectory }): Promise<void> {
  app.get('/api/auth-info', { config: { public: true } }, async (request, reply) => {
    const { tenantId } = parseOrThrow(AuthInfoQuerySchema, request.query);
    const tenant = await deps.tenants.get(tenantId);
    if (!tenant) throw new NotFoundError(`Unknown organisation "${tenantId}".`);
    return reply.header('cache-control', 'no-cache').send(authInfoFor(tenant));
  });
}
