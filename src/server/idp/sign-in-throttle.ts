/**
 * Sign-in throttling (issue 16), with @fastify/rate-limit's limiters rather than hand-made counters.
 * Only failed sign-ins count, per account (tenant and typed email) and per client address (within
 * its tenant; behind TRUST_PROXY the forwarded one, as Fastify resolves request.ip). Tiers make the
 * wait grow: a handful of failures locks for a minute, more within a quarter of an hour for longer,
 * more within an hour for an hour. While locked, the answer is 429 before any password is checked,
 * so a correct guess made during the lock does not sign anybody in. Keys include the tenant, so an
 * attack on one account or organisation never locks another.
 *
 * The counters are kept in the database (idp/rate-limit-store.ts), so replicas share them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

export interface ThrottleTier {
  readonly failures: number;
  readonly windowMs: number;
}

/** Per account: 5 failures in a minute, 10 in 15 minutes, 20 in an hour. */
export const ACCOUNT_TIERS: readonly ThrottleTier[] = [
  { failures: 5, windowMs: 60_000 },
  { failures: 10, windowMs: 15 * 60_000 },
  { failures: 20, windowMs: 60 * 60_000 },
];

/** Per client address: generous, as a hospital's clinicians may share one address behind its NAT. */
export const ADDRESS_TIERS: readonly ThrottleTier[] = [
  { failures: 30, windowMs: 5 * 60_000 },
  { failures: 100, windowMs: 60 * 60_000 },
];

export interface SignInAttempt {
  readonly tenantId: string;
  /** As typed, trimmed and lower-cased (an unknown account is counted like a known one). */
  readonly email: string;
}

export interface SignInThrottle {
  /** Seconds to wait before trying again, or 0 when this attempt may go ahead. */
  retryAfterSeconds(request: FastifyRequest, attempt: SignInAttempt): Promise<number>;
  /** Counts a failure; returns the seconds to wait if this failure reached a limit, else 0. */
  recordFailure(request: FastifyRequest, attempt: SignInAttempt): Promise<number>;
}

interface Counter {
  readonly limiter: Limiter;
  readonly key: (request: FastifyRequest, attempt: SignInAttempt) => string;
}

export function createSignInThrottle(app: FastifyInstance): SignInThrottle {
  // The attempt is not on the request: each limiter's key generator reads it from this map.
  const keys = new WeakMap<FastifyRequest, string>();
  const counters: Counter[] = [];
  const add = (tiers: readonly ThrottleTier[], name: string, key: Counter['key']) => {
    for (const tier of tiers) {
      const limiter = app.createRateLimit({
        max: tier.failures,
        timeWindow: tier.windowMs,
        keyGenerator: (request) => `${name}:${tier.windowMs}:${keys.get(request) ?? ''}`,
      });
      counters.push({ limiter, key });
    }
  };
  add(ACCOUNT_TIERS, 'account', (_request, attempt) => `${attempt.tenantId}/${attempt.email}`);
  add(ADDRESS_TIERS, 'address', (request, attempt) => `${attempt.tenantId}/${request.ip}`);

  const check = async (request: FastifyRequest, attempt: SignInAttempt, increment: boolean) => {
    let wait = 0;
    for (const { limiter, key } of counters) {
      keys.set(request, key(request, attempt));
      const status = await limiter(request, { increment });
      if (!status.isAllowed && status.remaining <= 0) wait = Math.max(wait, status.ttlInSeconds);
    }
    keys.delete(request);
    return Math.max(wait, 0);
  };

  return {
    retryAfterSeconds: (request, attempt) => check(request, attempt, false),
    recordFailure: (request, attempt) => check(request, attempt, true),
  };
}
