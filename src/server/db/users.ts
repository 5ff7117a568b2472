import { createHash, randomBytes } from 'node:crypto';
import { and, asc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { ADMIN_GROUP } from '../../domain/constants.ts';
import { SET_PASSWORD_LINK_TTL_MS, type UserListQuery, type UserPage, type UserSummary } from '../../domain/users.ts';
import { UNUSABLE_PASSWORD_HASH } from '../crypto/passwords.ts';
import { appendAudit } from './audit.ts';
import type { Db } from './client.ts';
import { oidcPayloads, passwordTokens, users } from './schema.ts';
import type { UserRow } from './tenants.ts';

/**
 * The tenant's accounts as administrators manage them. Every change and its audit row are
 * written in one transaction; password hashes never leave this module except into the database.
 */

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Executor = Db | Tx;

/**
 * Ends everything the identity provider holds for an account: its sign-in sessions, grants, codes and
 * access and refresh tokens (each of oidc-provider's records names its accountId). Called in the
 * transaction of a password reset, a disable and an administrator-rights change, so the change and the
 * sign-out happen together: nobody keeps a session the administrator meant to end.
 */
export async function endProviderSessions(tx: Executor, tenantId: string, accountId: string): Promise<number> {
  const ended = await tx
    .delete(oidcPayloads)
    .where(and(eq(oidcPayloads.tenantId, tenantId), sql`${oidcPayloads.payload}->>'accountId' = ${accountId}`))
    .returning({ id: oidcPayloads.id });
  return ended.length;
}

/** Every ID token issued to the account before stops working on the API (auth/account-check.ts). */
async function raiseCredentialVersion(tx: Executor, tenantId: string, userId: string): Promise<void> {
  await tx
    .update(users)
    .set({ credentialVersion: sql`${users.credentialVersion} + 1` })
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
}

/** Who made a change, for the audit trail. */
export type Actor = { id: string; email: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUserId(value: string): boolean {
  return UUID.test(value);
}

export function toUserSummary(row: UserRow): UserSummary {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    groups: row.groups,
    isAdmin: row.groups.includes(ADMIN_GROUP),
    disabled: row.disabled,
    lastSignInAt: row.lastSignInAt ? row.lastSignInAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
  };
}

function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

export async function listUsers(db: Db, tenantId: string, query: UserListQuery): Promise<UserPage> {
  const conditions: SQL[] = [eq(users.tenantId, tenantId)];
  if (query.search) {
    const pattern = `%${escapeLike(query.search)}%`;
    conditions.push(sql`(${users.email} ilike ${pattern} or ${users.name} ilike ${pattern})`);
  }
  const where = and(...conditions);
  const [rows, [count]] = await Promise.all([
    db.select().from(users).where(where).orderBy(asc(users.email)).limit(query.limit).offset(query.offset),
    db.select({ total: sql<number>`count(*)::int` }).from(users).where(where),
  ]);
  return { items: rows.map(toUserSummary), total: Number(count?.total ?? 0), offset: query.offset, limit: query.limit };
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Object; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export type IssuedToken = { token: string; expiresAt: Date };

/**
 * A new one-time set-password token for the user; any earlier unused one stops working, so only
 * the newest link handed out is valid. Only the token's hash is stored.
 */
async function issuePasswordToken(tx: Executor, tenantId: string, userId: string): Promise<IssuedToken> {
  await retireUnusedTokens(tx, tenantId, userId);
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(Date.now() + SET_PASSWORD_LINK_TTL_MS);
  await tx.insert(passwordTokens).values({ tokenHash: hashToken(token), tenantId, userId, expiresAt });
  return { token, expiresAt };
}

async function retireUnusedTokens(tx: Executor, tenantId: string, userId: string): Promise<void> {
  await tx
    .update(passwordTokens)
    .set({ usedAt: new Date() })
    .where(and(eq(passwordTokens.tenantId, tenantId), eq(passwordTokens.userId, userId), isNull(passwordTokens.usedAt)));
}

export type CreateUserInput = {
  tenantId: string;
  email: string;
  name: string;
  /** The hashed initial password, or null to hand out a one-time set-password link instead. */
  passwordHash: string | null;
  actor: Actor;
};

export type CreateUserResult = { ok: true; user: UserSummary; link: IssuedToken | null } | { ok: false; reason: 'duplicate-email' };

export async function createUser(db: Db, input: CreateUserInput): Promise<CreateUserResult> {
  const { tenantId, actor } = input;
  const email = input.email.trim().toLowerCase();
  try {
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(users)
        .values({ tenantId, email, name: input.name, passwordHash: input.passwordHash ?? UNUSABLE_PASSWORD_HASH, groups: [] })
        .returning();
      if (!row) throw new Error('user insert returned no row');
      const link = input.passwordHash ? null : await issuePasswordToken(tx, tenantId, row.id);
      await appendAudit(tx, {
        tenantId,
        action: 'user-created',
        actorId: actor.id,
        actorEmail: actor.email,
        targetType: 'user',
        targetId: row.id,
        details: { email, name: row.name, initialPassword: link ? 'one-time link' : 'set by administrator' },
      });
      return { ok: true as const, user: toUserSummary(row), link };
    });
  } catch (error) {
    if (isUniqueViolation(error)) return { ok: false, reason: 'duplicate-email' };
    throw error;
  }
}

export type UpdateUserInput = {
  tenantId: string;
  userId: string;
  admin?: boolean;
  disabled?: boolean;
  actor: Actor;
};

export type UpdateUserResult =
  | { ok: true; user: UserSummary }
  | { ok: false; reason: 'not-found' | 'self-disable' | 'last-admin' };

/**
 * Grants or revokes Admins and disables or enables the account. The tenant keeps at least one
 * enabled administrator: the tenant's admin rows are locked first, so two administrators
 * demoting each other at the same moment cannot both succeed.
 */
export async function updateUser(db: Db, input: UpdateUserInput): Promise<UpdateUserResult> {
  const { tenantId, userId, actor } = input;
  if (!isUserId(userId)) return { ok: false, reason: 'not-found' };
  return db.transaction(async (tx) => {
    const enabledAdmins = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.disabled, false), sql`${ADMIN_GROUP} = any(${users.groups})`))
      .for('update');
    const [target] = await tx
      .select()
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
      .for('update');
    if (!target) return { ok: false as const, reason: 'not-found' as const };
    if (input.disabled === true && target.id === actor.id) return { ok: false as const, reason: 'self-disable' as const };

    const wasAdmin = target.groups.includes(ADMIN_GROUP);
    const isAdmin = input.admin ?? wasAdmin;
    const disabled = input.disabled ?? target.disabled;
    const othersLeft = enabledAdmins.filter((admin) => admin.id !== target.id).length;
    if (othersLeft === 0 && !(isAdmin && !disabled)) return { ok: false as const, reason: 'last-admin' as const };

    const groups = isAdmin
      ? [...new Set([...target.groups, ADMIN_GROUP])]
      : target.groups.filter((group) => group !== ADMIN_GROUP);
    // New rights or none at all end the tokens issued before (auth/account-check.ts).
    const endsSignIns = isAdmin !== wasAdmin || (disabled && !target.disabled);
    const [row] = await tx
      .update(users)
      .set({ groups, disabled, ...(endsSignIns ? { credentialVersion: sql`${users.credentialVersion} + 1` } : {}) })
      .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
      .returning();
    if (!row) throw new Error('user update returned no row');

    const audit = { tenantId, actorId: actor.id, actorEmail: actor.email, targetType: 'user' as const, targetId: row.id };
    if (isAdmin !== wasAdmin) {
      await appendAudit(tx, {
        ...audit,
        action: 'role-changed',
        details: { email: row.email, group: ADMIN_GROUP, change: isAdmin ? 'granted' : 'revoked' },
      });
    }
    if (disabled !== target.disabled) {
      await appendAudit(tx, { ...audit, action: disabled ? 'account-disabled' : 'account-enabled', details: { email: row.email } });
    }
    // New rights or none at all take effect at the next sign-in, which this forces.
    if (endsSignIns) await endProviderSessions(tx, tenantId, userId);
    return { ok: true as const, user: toUserSummary(row) };
  });
}

export type ResetPasswordInput = {
  tenantId: string;
  userId: string;
  /** The new password's hash, or null for a new one-time set-password link. */
  passwordHash: string | null;
  actor: Actor;
};

export type ResetPasswordResult = { ok: true; user: UserSummary; link: IssuedToken | null } | { ok: false; reason: 'not-found' };

/** Sets a password or issues a new one-time link; either way, links handed out before stop working. */
export async function resetPassword(db: Db, input: ResetPasswordInput): Promise<ResetPasswordResult> {
  const { tenantId, userId, actor } = input;
  if (!isUserId(userId)) return { ok: false, reason: 'not-found' };
  return db.transaction(async (tx) => {
    const [target] = await tx
      .select()
      .from(users)
      .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)))
      .for('update');
    if (!target) return { ok: false as const, reason: 'not-found' as const };
    let link: IssuedToken | null = null;
    if (input.passwordHash) {
      await retireUnusedTokens(tx, tenantId, userId);
      await tx.update(users).set({ passwordHash: input.passwordHash }).where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
    } else {
      link = await issuePasswordToken(tx, tenantId, userId);
    }
    await raiseCredentialVersion(tx, tenantId, userId);
    // Whoever holds a session made with the old password (perhaps the reason for the reset) is signed out.
    await endProviderSessions(tx, tenantId, userId);
    await appendAudit(tx, {
      tenantId,
      action: 'password-reset',
      actorId: actor.id,
      actorEmail: actor.email,
      targetType: 'user',
      targetId: userId,
      details: { email: target.email, method: link ? 'one-time link issued' : 'set by administrator' },
    });
    return { ok: true as const, user: toUserSummary(target), link };
  });
}

const usableToken = (tenantId: string, token: string) =>
  and(
    eq(passwordTokens.tenantId, tenantId),
    eq(passwordTokens.tokenHash, hashToken(token)),
    isNull(passwordTokens.usedAt),
    gt(passwordTokens.expiresAt, sql`now()`),
  );

/** The enabled account a set-password token is for, while the token is unused and unexpired. */
export async function findPasswordTokenUser(db: Db, tenantId: string, token: string): Promise<UserSummary | undefined> {
  const [row] = await db
    .select({ user: users })
    .from(passwordTokens)
    .innerJoin(users, and(eq(users.id, passwordTokens.userId), eq(users.tenantId, passwordTokens.tenantId)))
    .where(and(usableToken(tenantId, token), eq(users.disabled, false)));
  return row ? toUserSummary(row.user) : undefined;
}

/**
 * Spends a set-password token: marks it used and sets the password in one transaction, so a
 * token works exactly once. Undefined when the token is unknown, used, expired, or its account
 * is disabled.
 */
export async function consumePasswordToken(
  db: Db,
  tenantId: string,
  token: string,
  passwordHash: string,
): Promise<UserSummary | undefined> {
  return db.transaction(async (tx) => {
    // One statement checks and spends the token, so of two racing requests only one gets a row.
    const [spent] = await tx
      .update(passwordTokens)
      .set({ usedAt: new Date() })
      .where(
        and(
          usableToken(tenantId, token),
          sql`exists (select 1 from ${users} where ${users.id} = ${passwordTokens.userId} and ${users.tenantId} = ${passwordTokens.tenantId} and not ${users.disabled})`,
        ),
      )
      .returning({ userId: passwordTokens.userId });
    if (!spent) return undefined;
    const [row] = await tx
      .update(users)
      .set({ passwordHash, credentialVersion: sql`${users.credentialVersion} + 1` })
      .where(and(eq(users.tenantId, tenantId), eq(users.id, spent.userId)))
      .returning();
    if (!row) throw new Error('password token of a missing user');
    // A new password signs out whoever was signed in with the old one.
    await endProviderSessions(tx, tenantId, row.id);
    await appendAudit(tx, {
      tenantId,
      action: 'password-reset',
      actorId: row.id,
      actorEmail: row.email,
      targetType: 'user',
      targetId: row.id,
      details: { email: row.email, method: 'one-time link used' },
    });
    return toUserSummary(row);
  });
}
