/**
 * The durable job queue: decoding an import, detecting a record's lumen and vessel borders (when
 * asked, and at idle once its frames are stored), and generating a demo record's imaging. pg-boss keeps the jobs in the database's `pgboss` schema. On
 * PostgreSQL every replica takes jobs from the same tables; on the embedded PGlite database the same
 * queue runs in this process over its one connection, so jobs survive a restart there too.
 *
 * What the handlers can count on, and must honour:
 * - One job per key at a time: a key is queued or running once at most ('exclusive' policy), so
 *   asking twice for the same work (two replicas, two clicks) makes one job.
 * - A running job beats every JOB_HEARTBEAT_SECONDS / 2. A server that dies mid-job stops beating,
 *   and the queue's supervision (every JOB_SUPERVISE_SECONDS) fails the job for a retry, which any
 *   server may take. A handler that throws is retried too, RETRY_LIMIT times. So every handler must
 *   be safe to run again: it writes the same files under the same keys, and commits its result once
 *   (a status checked in the committing transaction).
 * - Within a queue, higher priority first: the record a clinician has open before background work.
 */
import type { FastifyBaseLogger } from 'fastify';
import { fromPglite, PgBoss, type JobWithMetadata } from 'pg-boss';
import type { Database } from '../db/client.ts';

export const JOB_NAMES = ['import-decode', 'contours-detect', 'imaging-generate', 'contours-precompute'] as const;
export type JobName = (typeof JOB_NAMES)[number];

/**
 * pg-boss fetches the highest number first. The names are those of imaging/generation-queue.ts
 * (its GenerationPriority is passed here as it is, which the compiler checks); they are spelled
 * out rather than imported so that jobs/ stays below the rooms whose work it queues.
 */
export const JOB_PRIORITY = { urgent: 30, provisional: 25, demand: 20, background: 10, idle: 0 } as const satisfies Record<string, number>;
type NamedPriority = keyof typeof JOB_PRIORITY;

/**
 * A named priority, or `{ askedAt }`: within a queue whose every job someone waits for, the one
 * asked for last goes first (its priority is the time of asking, in seconds), and asking again
 * raises it. A page still open keeps asking; one left long ago no longer holds the others back.
 */
export type JobPriority = NamedPriority | { askedAt: Date };

const priorityNumber = (priority: JobPriority) => (typeof priority === 'string' ? JOB_PRIORITY[priority] : Math.floor(priority.askedAt.getTime() / 1000));

/** Runs after the first failure: a crash, a restart, a store that did not answer. */
const RETRY_LIMIT = 4;
const RETRY_DELAY_SECONDS = 2;
/** Finished jobs are kept a day (for the record of what ran), then removed by the queue's maintenance. */
const KEEP_FINISHED_SECONDS = 24 * 3600;
/** A job may run this long at most (the heartbeat catches a dead server much sooner). */
const MAX_RUN_SECONDS = 6 * 3600;
/**
 * How often an idle worker looks for jobs. A new job wakes the workers at once (LISTEN/NOTIFY);
 * a retry whose delay has run out wakes nobody, so polling stays short (pg-boss would wait 30 s).
 */
const POLLING_SECONDS = 1;

export type JobSettings = { heartbeatSeconds: number; superviseSeconds: number };

export type JobRun<T> = {
  id: string;
  data: T;
  /** How many times it ran before (0 on the first run). */
  retryCount: number;
  /** No retry follows if this run throws: the handler must leave nothing half-done. */
  lastAttempt: boolean;
};

export type JobHandler<T> = (run: JobRun<T>) => Promise<void>;

export interface JobQueue {
  /**
   * Queues the work unless a job with this key waits or runs already: then a waiting one is raised
   * to this priority if that is higher, and the answer is null.
   */
  send(name: JobName, data: object, options: { key: string; priority: JobPriority }): Promise<string | null>;
  /** Takes this queue's jobs, `concurrency` at once in this process. */
  work<T>(name: JobName, concurrency: number, handler: JobHandler<T>): Promise<void>;
  /** Whether a job with this key waits, waits for a retry, or runs (on any server). */
  pending(name: JobName, key: string): Promise<boolean>;
  /** Stops taking jobs and waits up to `timeoutMs` for the running ones; what is left is retried later. */
  stop(timeoutMs?: number): Promise<void>;
}

/** Connects the queue (creating its schema and queues on first use) and starts its supervision. */
export async function startJobQueue(database: Pick<Database, 'jobConnection'>, settings: JobSettings, log: FastifyBaseLogger): Promise<JobQueue> {
  const connection = database.jobConnection;
  const common = {
    schema: 'pgboss',
    superviseIntervalSeconds: settings.superviseSeconds,
    monitorIntervalSeconds: settings.superviseSeconds,
    useListenNotify: true,
    // Nothing here runs on a timetable: no cron scheduling.
    schedule: false,
  };
  const boss =
    connection.kind === 'postgres'
      ? new PgBoss({ ...common, connectionString: connection.url, max: 4, application_name: 'ivus-review-jobs' })
      : new PgBoss({ ...common, backend: 'pglite', db: fromPglite(connection.client) });
  // Its errors are about its own housekeeping (a poll that failed, a lost connection it retries): logged, never fatal.
  boss.on('error', (err: unknown) => log.warn({ err }, 'job queue'));
  await boss.start();
  for (const name of JOB_NAMES) {
    const options = {
      retryLimit: RETRY_LIMIT,
      retryDelay: RETRY_DELAY_SECONDS,
      heartbeatSeconds: settings.heartbeatSeconds,
      expireInSeconds: MAX_RUN_SECONDS,
      deleteAfterSeconds: KEEP_FINISHED_SECONDS,
    };
    await boss.createQueue(name, { ...options, policy: 'exclusive', notify: true });
    // An existing queue keeps its settings through createQueue: the ones configured now apply.
    await boss.updateQueue(name, options);
    // The embedded database is this process's alone (a lock on its directory): a job still active in
    // it lost its process, and is retried at once rather than after its heartbeat runs out.
    if (connection.kind === 'pglite') {
      const orphans = (await boss.findJobs(name, { limit: 100_000 })).filter((job) => job.state === 'active');
      if (orphans.length > 0) {
        await boss.fail(name, orphans.map((job) => ({ id: job.id, retryCount: job.retryCount })), { message: 'its server stopped' });
        log.warn({ queue: name, jobs: orphans.length }, 'jobs of a stopped server queued again');
      }
    }
  }

  return {
    async send(name, data, options) {
      const priority = priorityNumber(options.priority);
      const id = await boss.send(name, data, { singletonKey: options.key, priority });
      if (id !== null) return id;
      for (const waiting of await boss.findJobs(name, { key: options.key, queued: true })) {
        if (waiting.priority < priority) await boss.update(name, undefined, { id: waiting.id, priority });
      }
      return null;
    },

    async work<T>(name: JobName, concurrency: number, handler: JobHandler<T>) {
      const options = {
        includeMetadata: true,
        batchSize: 1,
        localConcurrency: concurrency,
        pollingIntervalSeconds: POLLING_SECONDS,
        notifyPollingIntervalSeconds: POLLING_SECONDS,
      } as const;
      await boss.work<T, void, typeof options>(name, options, async (jobs: JobWithMetadata<T>[]) => {
        for (const job of jobs) {
          await handler({ id: job.id, data: job.data, retryCount: job.retryCount, lastAttempt: job.retryCount >= job.retryLimit });
        }
      });
    },

    async pending(name, key) {
      const jobs = await boss.findJobs(name, { key });
      return jobs.some((job) => job.state === 'created' || job.state === 'retry' || job.state === 'active');
    },

    stop: (timeoutMs = 10_000) => boss.stop({ graceful: true, timeout: timeoutMs, close: true }),
  };
}
