/**
 * The sign-in throttle's counters in the database (schema: rate_limit_counters). The database's
 * clock decides when a window ends, so replicas whose clocks differ still agree.
 */
import { lt, sql } from 'drizzle-orm';
import type { Db } from './client.ts';
import { rateLimitCounters } from './schema.ts';

export type CounterState = { current: number; ttl: number };

const expiry = sql`${rateLimitCounters.windowStart} + ${rateLimitCounters.windowMs} * interval '1 millisecond'`;

/** Counts one more under `key`, starting a new window of `windowMs` when the last one has ended. */
export async function incrementCounter(db: Db, key: string, windowMs: number): Promise<CounterState> {
  const ended = sql`${rateLimitCounters.windowStart} + ${rateLimitCounters.windowMs} * interval '1 millisecond' <= now()`;
  const [row] = await db
    .insert(rateLimitCounters)
    .values({ key, count: 1, windowStart: sql`now()`, windowMs })
    .onConflictDoUpdate({
      target: rateLimitCounters.key,
      set: {
        count: sql`case when ${ended} then 1 else ${rateLimitCounters.count} + 1 end`,
        windowStart: sql`case when ${ended} then now() else ${rateLimitCounters.windowStart} end`,
        windowMs: sql`case when ${ended} then ${windowMs} else ${rateLimitCounters.windowMs} end`,
      },
    })
    .returning({ current: rateLimitCounters.count, ttl: sql<number>`greatest(0, extract(epoch from (${expiry} - now())) * 1000)::float8` });
  return { current: row!.current, ttl: Number(row!.ttl) };
}

/** The count under `key` in its live window, without counting (0 when there is none). */
export async function readCounter(db: Db, key: string): Promise<CounterState> {
  const [row] = await db
    .select({ current: rateLimitCounters.count, ttl: sql<number>`extract(epoch from (${expiry} - now())) * 1000` })
    .from(rateLimitCounters)
    .where(sql`${rateLimitCounters.key} = ${key} and ${expiry} > now()`);
  return row ? { current: row.current, ttl: Number(row.ttl) } : { current: 0, ttl: 0 };
}

/** Removes counters whose window ended more than an hour ago (the longest throttle window). */
export async function deleteExpiredCounters(db: Db): Promise<void> {
  await db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, sql`now() - interval '2 hours'`));
}
