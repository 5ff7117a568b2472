/**
 * Sign-in throttling (issues 16 and 24), with @fastify/rate-limit's limiters rather than hand-made
 * counters. Only failed sign-ins count, in three kinds of counter (auth/sign-in-locks.ts holds the
 * tiers and keys): per account and client (an address, or a browser with the account's device
 * cookie), per account from browsers without its device cookie, and per client address within the
 * tenant (behind TRUST_PROXY the forwarded one, as Fastify resolves request.ip). Tiers make the wait
 * grow. While locked, the answer is 429 before any password is checked, so a correct guess made
 * during the lock does not sign anybody in.
 *
 * A browser that signed in to the account before is counted only by its own device counter: guesses
 * from elsewhere, however many, never lock the owner out of their own browser. Keys include the
 * tenant, so an attack on one account or organisation never locks another.
 *
 * The counters are kept in the database (idp/rate-limit-store.ts), so replicas share them.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ACCOUNT_TIERS, ADDRESS_TIERS, CLIENT_TIERS, counterKey, type CounterKind, type SignInClient, type ThrottleTier } from '../auth/sign-in-locks.ts';

type Limiter = ReturnType<FastifyInstance['createRateLimit']>;

export interface SignInAttempt {
  readonly tenantId: string;
  /** As typed, trimmed and lower-cased (an unknown account is counted like a known one). */
  readonly email: string;
  /** The id of this browser's device cookie when it is valid for the account typed. */
  readonly deviceId?: string;
}

export interface SignInThrottle {
  /** Seconds to wait before trying again, or 0 when this attempt may go ahead. */
  retryAfterSeconds(request: FastifyRequest, attempt: SignInAttempt): Promise<number>;
  /** Counts a failure; returns the seconds to wait if this failure reached a limit, else 0. */
  recordFailure(request: FastifyRequest, attempt: SignInAttempt): Promise<number>;
}

interface Counter {
  readonly kind: CounterKind;
  readonly tier: ThrottleTier;
  readonly limiter: Limiter;
}

function clientOf(request: FastifyRequest, attempt: SignInAttempt): SignInClient {
  return attempt.deviceId ? { deviceId: attempt.deviceId } : { address: request.ip };
}

export function createSignInThrottle(app: FastifyInstance): SignInThrottle {
  // The attempt is not on the request: each limiter's key generator reads the key from this map.
  const keys = new WeakMap<FastifyRequest, string>();
  const counters: Counter[] = [];
  const add = (kind: CounterKind, tiers: readonly ThrottleTier[]) => {
    for (const tier of tiers) {
      const limiter = app.createRateLimit({ max: tier.failures, timeWindow: tier.windowMs, keyGenerator: (request) => keys.get(request) ?? '' });
      counters.push({ kind, tier, limiter });
    }
  };
  add('client', CLIENT_TIERS);
  add('account', ACCOUNT_TIERS);
  add('address', ADDRESS_TIERS);

  const check = async (request: FastifyRequest, attempt: SignInAttempt, increment: boolean) => {
    let wait = 0;
    const client = clientOf(request, attempt);
    for (const { kind, tier, limiter } of counters) {
      // The owner's own browser answers only to its own counter.
      if (attempt.deviceId && kind !== 'client') continue;
      keys.set(request, counterKey(kind, tier, attempt.tenantId, attempt.email, client));
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
