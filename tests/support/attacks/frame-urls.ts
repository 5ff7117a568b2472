/**
 * Issue 27, frame chunks from the object store: the frame route hands out a signed URL that works for
 * whoever holds it, so it must never be handed to a caller the route would not have sent the bytes
 * to. The attack target keeps its frames in a bucket (s3rver) with FRAMES_FROM_STORE on; each attack
 * counts as refused only with the right status AND no signed URL anywhere in the answer.
 */
import { sql } from 'drizzle-orm';
import type { Attack, AttackTarget } from '../attack-types.ts';

const CLINICIAN = 'clinician@demo.test';

async function recordOf(target: AttackTarget, tenantId: string): Promise<string> {
  const result = await target.database.db.execute(sql`select id from records where tenant_id = ${tenantId} and bmode_frame_count > 0 order by id limit 1`);
  return (result as unknown as { rows: { id: string }[] }).rows[0]!.id;
}

/** The status of a chunk request, or 200 whatever it was when the answer carries a signed URL. */
async function chunkStatus(target: AttackTarget, host: string, path: string, authorization?: string): Promise<number> {
  const response = await target.app.inject({ method: 'GET', url: path, headers: { host: target.hostOf(host), ...(authorization ? { authorization } : {}) } });
  return /X-Amz-Signature/i.test(response.body) ? 200 : response.statusCode;
}

const chunkPath = (tenantId: string, recordId: string) => `/api/${tenantId}/records/${recordId}/frames/bmode/0?v=v1`;

export const FRAME_URL_ATTACKS: readonly Attack[] = [
  {
    category: 'frame urls',
    name: "a demo clinician asks for a chunk of acme's record through demo",
    expected: [404],
    run: async (t) => chunkStatus(t, 'demo', chunkPath('demo', await recordOf(t, 'acme')), `Bearer ${await t.token('demo', CLINICIAN)}`),
  },
  {
    category: 'frame urls',
    name: "a demo clinician's token sent to acme for acme's record",
    expected: [401, 403],
    run: async (t) => chunkStatus(t, 'acme', chunkPath('acme', await recordOf(t, 'acme')), `Bearer ${await t.token('demo', CLINICIAN)}`),
  },
  { category: 'frame urls', name: 'a chunk asked for with no token', expected: [401], run: async (t) => chunkStatus(t, 'demo', chunkPath('demo', await recordOf(t, 'demo'))) },
  {
    category: 'frame urls',
    name: 'a chunk asked for with an expired token',
    expected: [401],
    run: async (t) => chunkStatus(t, 'demo', chunkPath('demo', await recordOf(t, 'demo')), `Bearer ${await t.token('demo', CLINICIAN, { expiresIn: Math.floor(Date.now() / 1000) - 60 })}`),
  },
];
