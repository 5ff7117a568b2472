import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  CreateUserBodySchema,
  PasswordResetBodySchema,
  SET_PASSWORD_PATH,
  UpdateUserBodySchema,
  UserListQuerySchema,
  type UserChangeResult,
  type UserPage,
  type UserSummary,
} from '../../domain/users.ts';
import type { AccountChecks } from '../auth/account-check.ts';
import { hashPassword } from '../crypto/passwords.ts';
import type { Db } from '../db/client.ts';
import { appendAudit } from '../db/audit.ts';
import { findUserById } from '../db/tenants.ts';
import { createUser, isUserId, listUsers, resetPassword, toUserSummary, updateUser, type Actor, type IssuedToken } from '../db/users.ts';
import { clearSignInLocks, signInLocks } from '../auth/sign-in-locks.ts';
import { requireAdmin } from './require-admin.ts';
import { NotFoundError, parseOrThrow } from './validation.ts';

class ConflictError extends Error {
  readonly statusCode = 409;
}

class RefusedError extends Error {
  readonly statusCode = 400;
}

const UserParamsSchema = z.object({ tenant: z.string(), userId: z.string() });

function actorOf(request: FastifyRequest): Actor {
  return { id: request.principal!.userId, email: request.principal!.email };
}

/** The one-time link, sent in this answer only; the database keeps a hash of its token. */
function linkOf(request: FastifyRequest, issued: IssuedToken | null): UserChangeResult['setPasswordLink'] {
  if (!issued) return null;
  const url = `${request.tenant!.origin}${SET_PASSWORD_PATH}?token=${encodeURIComponent(issued.token)}`;
  return { url, expiresAt: issued.expiresAt.toISOString() };
}

/** The link is a credential: no cache may keep the answer that carries it. */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('cache-control', 'no-store');
}

/**
 * User administration (administrators only, checked here whatever the browser shows). Accounts
 * are those of the embedded provider; a tenant signing in elsewhere manages them there.
 */
export async function userRoutes(app: FastifyInstance, deps: { db: Db; accounts: AccountChecks }): Promise<void> {
  app.addHook('preHandler', requireAdmin);
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'GET' && request.tenant && !request.tenant.embedded) {
      return reply.code(409).send({
        error: 'conflict',
        message: "This organisation's accounts are managed by its own identity provider; change them there.",
      });
    }
  });

  app.get('/api/:tenant/users', async (request): Promise<UserPage> => {
    const query = parseOrThrow(UserListQuerySchema, request.query);
    const tenantId = request.principal!.tenantId;
    const page = await listUsers(deps.db, tenantId, query);
    const locks = await signInLocks(deps.db, tenantId, page.items.map((user) => user.email));
    return { ...page, items: page.items.map((user) => ({ ...user, signInLock: locks.get(user.email) ?? null })) };
  });

  // Clears the account's sign-in locks (every address and browser, and the account-wide one), audited.
  app.delete('/api/:tenant/users/:userId/sign-in-lock', async (request): Promise<UserSummary> => {
    const { userId } = parseOrThrow(UserParamsSchema, request.params);
    const tenantId = request.principal!.tenantId;
    const user = isUserId(userId) ? await findUserById(deps.db, tenantId, userId) : undefined;
    if (!user) throw new NotFoundError(`No user "${userId}".`);
    const cleared = await deps.db.transaction(async (tx) => {
      const count = await clearSignInLocks(tx, tenantId, user.email);
      await appendAudit(tx, {
        tenantId,
        action: 'sign-in-lock-cleared',
        actorId: request.principal!.userId,
        actorEmail: request.principal!.email,
        targetType: 'user',
        targetId: user.id,
        details: { email: user.email, counters: count },
      });
      return count;
    });
    request.log.info({ tenant: tenantId, counters: cleared }, 'sign-in lock cleared');
    return { ...toUserSummary(user), signInLock: null };
  });

  app.post('/api/:tenant/users', async (request, reply): Promise<UserChangeResult> => {
    const body = parseOrThrow(CreateUserBodySchema, request.body ?? {});
    const passwordHash = body.password ? await hashPassword(body.password) : null;
    const result = await createUser(deps.db, {
      tenantId: request.principal!.tenantId,
      email: body.email,
      name: body.name,
      passwordHash,
      actor: actorOf(request),
    });
    if (!result.ok) throw new ConflictError(`An account with the email ${body.email} already exists.`);
    noStore(reply).code(201);
    return { user: result.user, setPasswordLink: linkOf(request, result.link) };
  });

  app.patch('/api/:tenant/users/:userId', async (request): Promise<UserSummary> => {
    const { userId } = parseOrThrow(UserParamsSchema, request.params);
    const body = parseOrThrow(UpdateUserBodySchema, request.body ?? {});
    const result = await updateUser(deps.db, { tenantId: request.principal!.tenantId, userId, ...body, actor: actorOf(request) });
    // This replica answers for the account anew at once; the others within ACCOUNT_CHECK_CACHE_MS.
    if (result.ok) deps.accounts.forgetAccount(request.principal!.tenantId, userId);
    if (result.ok) return result.user;
    switch (result.reason) {
      case 'not-found':
        throw new NotFoundError(`No user "${userId}".`);
      case 'self-disable':
        throw new RefusedError('You cannot disable your own account.');
      case 'last-admin':
        throw new ConflictError('The organisation needs at least one enabled administrator: make someone else an administrator first.');
    }
  });

  app.post('/api/:tenant/users/:userId/password-reset', async (request, reply): Promise<UserChangeResult> => {
    const { userId } = parseOrThrow(UserParamsSchema, request.params);
    const body = parseOrThrow(PasswordResetBodySchema, request.body ?? {});
    const passwordHash = body.password ? await hashPassword(body.password) : null;
    const result = await resetPassword(deps.db, { tenantId: request.principal!.tenantId, userId, passwordHash, actor: actorOf(request) });
    if (!result.ok) throw new NotFoundError(`No user "${userId}".`);
    deps.accounts.forgetAccount(request.principal!.tenantId, userId);
    noStore(reply);
    return { user: result.user, setPasswordLink: linkOf(request, result.link) };
  });
}
