/**
 * The sign-in throttle's limits and counter keys (idp/sign-in-throttle.ts counts with them), and what
 * administrators see and clear of them (http/users.ts). Three kinds of counter, each in tiers whose
 * wait grows with the failures:
 *
 * - `client`: one account from one client, that is one address, or one browser that signed in to the
 *   account before (its device cookie, idp/device-cookie.ts). The lock a typist or a guesser meets.
 * - `account`: one account from every client without its device cookie. Slows a guesser who spreads
 *   over many addresses, but never locks the owner's own browsers out, so nobody can lock an account.
 * - `address`: one address on every account of the tenant (a password spray from one place).
 *
 * Counter rows live in rate_limit_counters, shared by every replica; a key holds its tier's window.
 */
import { and, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { rateLimitCounters } from '../db/schema.ts';

export interface ThrottleTier {
  readonly failures: number;
  readonly windowMs: number;
}

/** Per account and client: 5 failures in a minute, 10 in 15 minutes, 20 in an hour. */
export const CLIENT_TIERS: readonly ThrottleTier[] = [
  { failures: 5, windowMs: 60_000 },
  { failures: 10, windowMs: 15 * 60_000 },
  { failures: 20, windowMs: 60 * 60_000 },
];

/** Per account, from browsers without its device cookie: 10 in 15 minutes, 30 in an hour. */
export const ACCOUNT_TIERS: readonly ThrottleTier[] = [
  { failures: 10, windowMs: 15 * 60_000 },
  { failures: 30, windowMs: 60 * 60_000 },
];

/** Per client address: generous, as a hospital's clinicians may share one address behind its NAT. */
export const ADDRESS_TIERS: readonly ThrottleTier[] = [
  { failures: 30, windowMs: 5 * 60_000 },
  { failures: 100, windowMs: 60 * 60_000 },
];

export type CounterKind = 'client' | 'account' | 'address';

const TIERS: Record<CounterKind, readonly ThrottleTier[]> = { client: CLIENT_TIERS, account: ACCOUNT_TIERS, address: ADDRESS_TIERS };

/** The email as typed (trimmed, lower-cased), encoded so that no typed text can reach into another key. */
function accountPart(tenantId: string, email: string): string {
  return `${tenantId}/${encodeURIComponent(email)}`;
}

/** Who is trying: a browser with this account's device cookie, or else an address. */
export type SignInClient = { deviceId: string } | { address: string };

export function counterKey(kind: CounterKind, tier: ThrottleTier, tenantId: string, email: string, client: SignInClient): string {
  const who = 'deviceId' in client ? `device:${client.deviceId}` : `address:${encodeURIComponent(client.address)}`;
  const subject =
    kind === 'address' ? `${tenantId}/${who}` : kind === 'account' ? accountPart(tenantId, email) : `${accountPart(tenantId, email)}/${who}`;
  return `${kind}:${tier.windowMs}:${subject}`;
}

/** The counters of one account: its account-wide keys and the prefixes of its per-client keys. */
function accountCounters(tenantId: string, email: string): SQL {
  const account = ACCOUNT_TIERS.map((tier) => `account:${tier.windowMs}:${accountPart(tenantId, email)}`);
  const clients = CLIENT_TIERS.map((tier) => `client:${tier.windowMs}:${accountPart(tenantId, email)}/`);
  return or(inArray(rateLimitCounters.key, account), ...clients.map((prefix) => sql`starts_with(${rateLimitCounters.key}, ${prefix})`))!;
}

const expiry = sql<Date>`${rateLimitCounters.windowStart} + ${rateLimitCounters.windowMs} * interval '1 millisecond'`;

/** What an administrator sees of a locked account. */
export type SignInLock = {
  /** When the last of its locks ends. */
  until: string;
  /** Browsers without the account's device cookie are locked out everywhere (the owner's own still work). */
  accountWide: boolean;
  /** How many clients (addresses or devices) are locked out of it. */
  clients: number;
};

function tierOf(key: string): { kind: CounterKind; tier: ThrottleTier } | undefined {
  const [kind, windowMs] = key.split(':', 2) as [CounterKind, string];
  const tier = TIERS[kind]?.find((t) => String(t.windowMs) === windowMs);
  return tier ? { kind, tier } : undefined;
}

/** The locks of each listed account (by lower-cased email) that are still in force; an unlocked account is absent. */
export async function signInLocks(db: Db, tenantId: string, emails: readonly string[]): Promise<Map<string, SignInLock>> {
  const locks = new Map<string, SignInLock>();
  if (emails.length === 0) return locks;
  const rows = await db
    .select({ key: rateLimitCounters.key, count: rateLimitCounters.count, until: sql<string>`(${expiry})::text` })
    .from(rateLimitCounters)
    .where(and(or(...emails.map((email) => accountCounters(tenantId, email))), sql`${expiry} > now()`));
  const byAccount = new Map(emails.map((email) => [accountPart(tenantId, email), email]));
  const lockedClients = new Map<string, Set<string>>();
  for (const row of rows) {
    const found = tierOf(row.key);
    if (!found || row.count < found.tier.failures) continue;
    // `{kind}:{window}:{tenant}/{email}[/{client}]`: neither the tenant nor the encoded email holds a '/'.
    const [tenant, encodedEmail, client] = row.key.slice(`${found.kind}:${found.tier.windowMs}:`.length).split('/');
    const email = byAccount.get(`${tenant}/${encodedEmail}`);
    if (email === undefined) continue;
    const until = new Date(row.until);
    const lock = locks.get(email) ?? { until: until.toISOString(), accountWide: false, clients: 0 };
    if (until > new Date(lock.until)) lock.until = until.toISOString();
    if (found.kind === 'account') lock.accountWide = true;
    else {
      const clients = lockedClients.get(email) ?? new Set<string>();
      clients.add(client ?? '');
      lockedClients.set(email, clients);
      lock.clients = clients.size;
    }
    locks.set(email, lock);
  }
  return locks;
}

/** Forgets every failure counted against the account (its own and per client): it can be tried at once. */
export async function clearSignInLocks(db: Db, tenantId: string, email: string): Promise<number> {
  const cleared = await db.delete(rateLimitCounters).where(accountCounters(tenantId, email)).returning({ key: rateLimitCounters.key });
  return cleared.length;
}
