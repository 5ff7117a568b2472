/**
 * A store for @fastify/rate-limit on the product's database (db/rate-limits.ts), so the sign-in
 * throttle counts failures across every replica: five wrong passwords spread over two replicas lock
 * the account as five on one do. The plugin's own stores are process memory or Redis.
 */
import type { Db } from '../db/client.ts';
import { incrementCounter, readCounter, type CounterState } from '../db/rate-limits.ts';

type Callback = (error: Error | null, state?: CounterState) => void;

export function databaseRateLimitStore(db: Db) {
  return class DatabaseRateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      incrementCounter(db, key, timeWindow).then((state) => callback(null, state), callback);
    }

    read(key: string, callback: Callback): void {
      readCounter(db, key).then((state) => callback(null, state), callback);
    }

    child(): DatabaseRateLimitStore {
      return new DatabaseRateLimitStore();
    }
  };
}
