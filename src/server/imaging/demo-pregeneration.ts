/**
 * Has the demo records nobody has opened yet generated, at idle priority, once the server listens:
 * a newcomer's first open then finds its frames stored, as on a revisit. The server passes
 * RecordImaging.schedule, which queues one durable job per record not yet made (any replica may
 * take it); idle work runs only when no page and no opened record is waiting on the frame workers
 * (generation-queue.ts).
 */
import { and, asc, desc, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';
import { records } from '../db/schema.ts';
import { DEMO_TENANTS } from '../seed/demo-accounts.ts';
import { GenerationQueueClosedError } from './generation-queue.ts';
import type { RecordImaging } from './record-imaging.ts';

export interface DemoPregeneration {
  /** Ends the loop after the record under way; close the RecordImaging to drop its waiting chunks too. */
  stop(): Promise<void>;
}

export function startDemoPregeneration(db: Db, imaging: { generateAll: RecordImaging['generateAll'] }, log: FastifyBaseLogger): DemoPregeneration {
  let stopped = false;
  const tenantIds: string[] = DEMO_TENANTS.map((tenant) => tenant.id);
  const run = (async () => {
    // The order a newcomer meets them: the demo tenant's patients first, each one's newest record first.
    const rows = await db
      .select()
      .from(records)
      .where(and(inArray(records.tenantId, tenantIds), eq(records.imagingSource, 'demo')))
      .orderBy(asc(records.patientId), desc(records.acquiredAt));
    rows.sort((a, b) => tenantIds.indexOf(a.tenantId) - tenantIds.indexOf(b.tenantId));
    for (const record of rows) {
      if (stopped) return;
      await imaging.generateAll(record, 'idle');
    }
    log.info({ records: rows.length }, 'demo imaging generated or queued');
  })().catch((err: unknown) => {
    if (!stopped && !(err instanceof GenerationQueueClosedError)) log.error({ err }, 'demo imaging pre-generation failed');
  });
  return {
    async stop() {
      stopped = true;
      await run;
    },
  };
}
