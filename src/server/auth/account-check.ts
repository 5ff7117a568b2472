/**
 * Whether an ID token of the embedded provider may still call the API: its account exists, is
 * enabled and has the credential version the token was issued with (a password change, a disable
 * and a rights change raise it), and the sign-in session the token came from (its `sid`) has not
 * ended (signing out at the provider deletes the session row; so does any change that raises the
 * version). Everything is read from the database that all replicas share.
 *
 * Each replica keeps an answer for ACCOUNT_CHECK_CACHE_MS at most, so a burst of API calls costs
 * one query. That is the bound on how long another replica may still accept a token after a
 * sign-out or an account change; the replica that made the change forgets its answers at once.
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { oidcPayloads, users } from '../db/schema.ts';
import type { UserRow } from '../db/tenants.ts';

/** How long a replica may reuse an answer (the README's "within 2 seconds on every replica"). */
export const ACCOUNT_CHECK_CACHE_MS = 2_000;
/** Cached answers per replica at most; the oldest are dropped first. */
const MAX_CACHED = 10_000;

export type AccountCheck = { user: UserRow | undefined; sessionLive: boolean };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function readAccountCheck(db: Db, tenantId: string, userId: string, sid: string): Promise<AccountCheck> {
  if (!UUID.test(userId)) return { user: undefined, sessionLive: false };
  const sessionLive = sql<boolean>`exists (select 1 from ${oidcPayloads}
    where ${oidcPayloads.tenantId} = ${tenantId} and ${oidcPayloads.model} = 'Session'
      and ${oidcPayloads.sessionIds} @> array[${sid}]::text[]
      and ${oidcPayloads.payload}->>'accountId' = ${userId}
      and (${oidcPayloads.expiresAt} is null or ${oidcPayloads.expiresAt} > now()))`;
  const [row] = await db
    .select({ user: users, sessionLive })
    .from(users)
    .where(and(eq(users.tenantId, tenantId), eq(users.id, userId)));
  return { user: row?.user, sessionLive: row?.sessionLive === true };
}

/** The check with a short per-replica memory; `forgetAccount` drops what this replica knows of one account. */
export class AccountChecks {
  private readonly cache = new Map<string, { at: number; check: Promise<AccountCheck> }>();
  private readonly db: Db;
  private readonly now: () => number;

  constructor(db: Db, now: () => number = Date.now) {
    this.db = db;
    this.now = now;
  }

  check(tenantId: string, userId: string, sid: string): Promise<AccountCheck> {
    const key = JSON.stringify([tenantId, userId, sid]);
    const cached = this.cache.get(key);
    if (cached && this.now() - cached.at < ACCOUNT_CHECK_CACHE_MS) return cached.check;
    const check = readAccountCheck(this.db, tenantId, userId, sid);
    this.cache.delete(key);
    this.cache.set(key, { at: this.now(), check });
    // A failed query is not remembered: the next request asks again.
    check.catch(() => this.cache.delete(key));
    if (this.cache.size > MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    return check;
  }

  forgetAccount(tenantId: string, userId: string): void {
    const prefix = JSON.stringify([tenantId, userId]).slice(0, -1);
    for (const key of this.cache.keys()) if (key.startsWith(prefix)) this.cache.delete(key);
  }
}
