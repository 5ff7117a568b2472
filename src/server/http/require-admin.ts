import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * preHandler for administrator-only routes. It runs after `authenticate`, which has read the
 * account's current groups from the database, so a revoked administrator is refused at once
 * whatever their token still says.
 */
export async function requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (!request.principal?.isAdmin) {
    return reply.code(403).send({ error: 'forbidden', message: 'Only administrators can manage users and read the audit trail.' });
  }
}
