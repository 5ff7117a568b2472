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

/** A batch of locations (issue 27) for a record; `query` after the version, `v1` unless given. */
const batchPath = (tenantId: string, recordId: string, query: string, v = 'v1') => `/api/${tenantId}/records/${recordId}/frame-locations/bmode?v=${v}&${query}`;
const asDemoClinician = async (t: AttackTarget, query: string, v?: string) =>
  chunkStatus(t, 'demo', batchPath('demo', await recordOf(t, 'demo'), query, v), `Bearer ${await t.token('demo', CLINICIAN)}`);

/** Each one must be refused with no signed URL: a batch hands out many chunks' capabilities at once. */
const BATCH_ATTACKS: readonly Attack[] = [
  {
    category: 'frame urls',
    name: "a demo clinician asks for a batch of locations of acme's record through demo",
    expected: [404],
    run: async (t) => chunkStatus(t, 'demo', batchPath('demo', await recordOf(t, 'acme'), 'from=0&count=4'), `Bearer ${await t.token('demo', CLINICIAN)}`),
  },
  {
    category: 'frame urls',
    name: "a demo clinician's token sent to acme for a batch of acme's record",
    expected: [401, 403],
    run: async (t) => chunkStatus(t, 'acme', batchPath('acme', await recordOf(t, 'acme'), 'from=0&count=4'), `Bearer ${await t.token('demo', CLINICIAN)}`),
  },
  { category: 'frame urls', name: 'a batch of locations with no token', expected: [401], run: async (t) => chunkStatus(t, 'demo', batchPath('demo', await recordOf(t, 'demo'), 'from=0&count=4')) },
  { category: 'frame urls', name: 'a batch of locations for a replaced imaging version', expected: [404], run: (t) => asDemoClinician(t, 'from=0&count=4', 'v0') },
  { category: 'frame urls', name: 'a batch of locations with no version', expected: [400], run: async (t) => chunkStatus(t, 'demo', `/api/demo/records/${await recordOf(t, 'demo')}/frame-locations/bmode?from=0&count=4`, `Bearer ${await t.token('demo', CLINICIAN)}`) },
  { category: 'frame urls', name: 'a batch of 257 locations (over the cap)', expected: [400], run: (t) => asDemoClinician(t, 'from=0&count=257') },
  { category: 'frame urls', name: 'a batch of a million locations', expected: [400], run: (t) => asDemoClinician(t, 'from=0&count=1000000') },
  { category: 'frame urls', name: 'a batch of no locations', expected: [400], run: (t) => asDemoClinician(t, 'from=0&count=0') },
  { category: 'frame urls', name: 'a batch from a negative chunk', expected: [400], run: (t) => asDemoClinician(t, 'from=-1&count=4') },
  { category: 'frame urls', name: 'a batch from past the last chunk', expected: [404], run: (t) => asDemoClinician(t, 'from=999999&count=4') },
  { category: 'frame urls', name: 'a batch with non-numeric bounds', expected: [400], run: (t) => asDemoClinician(t, 'from=0x1&count=1e2') },
  { category: 'frame urls', name: 'a batch with a NUL byte in its bounds', expected: [400], run: (t) => asDemoClinician(t, 'from=0%00&count=4') },
  { category: 'frame urls', name: 'a batch with a NUL byte in its version', expected: [400, 404], run: (t) => asDemoClinician(t, 'from=0&count=4', 'v1%00') },
  { category: 'frame urls', name: 'a batch with its bounds given twice', expected: [400], run: (t) => asDemoClinician(t, 'from=0&from=5&count=4') },
  { category: 'frame urls', name: 'a batch with an extra parameter', expected: [400], run: (t) => asDemoClinician(t, 'from=0&count=4&key=demo/other') },
];

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
  ...BATCH_ATTACKS,
];
