/**
 * Issue 23, provisional contours: `GET /api/{tenant}/records/{recordId}/contours/provisional` tells
 * what a record's detection has found so far. It must answer exactly whom the contours answer: a
 * signed-in member of the record's tenant. Each attack counts as refused only with the right status
 * AND no provisional body in the answer.
 */
import { sql } from 'drizzle-orm';
import type { Attack, AttackTarget } from '../attack-types.ts';

const CLINICIAN = 'clinician@demo.test';

async function recordOf(target: AttackTarget, tenantId: string): Promise<string> {
  const result = await target.database.db.execute(sql`select id from records where tenant_id = ${tenantId} and bmode_frame_count > 0 order by id limit 1`);
  return (result as unknown as { rows: { id: string }[] }).rows[0]!.id;
}

async function provisionalStatus(target: AttackTarget, host: string, path: string, authorization?: string): Promise<number> {
  const response = await target.app.inject({ method: 'GET', url: path, headers: { host: target.hostOf(host), ...(authorization ? { authorization } : {}) } });
  return /"status":"provisional"/.test(response.body) ? 200 : response.statusCode;
}

const provisionalPath = (tenantId: string, recordId: string) => `/api/${tenantId}/records/${recordId}/contours/provisional`;

export const PROVISIONAL_CONTOUR_ATTACKS: readonly Attack[] = [
  {
    category: 'provisional contours',
    name: "a demo clinician asks for acme's record's provisional contours through demo",
    expected: [404],
    run: async (t) => provisionalStatus(t, 'demo', provisionalPath('demo', await recordOf(t, 'acme')), `Bearer ${await t.token('demo', CLINICIAN)}`),
  },
  {
    category: 'provisional contours',
    name: "a demo clinician's token sent to acme for acme's record's provisional contours",
    expected: [401, 403],
    run: async (t) => provisionalStatus(t, 'acme', provisionalPath('acme', await recordOf(t, 'acme')), `Bearer ${await t.token('demo', CLINICIAN)}`),
  },
  { category: 'provisional contours', name: 'provisional contours asked for with no token', expected: [401], run: async (t) => provisionalStatus(t, 'demo', provisionalPath('demo', await recordOf(t, 'demo'))) },
  {
    category: 'provisional contours',
    name: 'provisional contours asked for with an expired token',
    expected: [401],
    run: async (t) => provisionalStatus(t, 'demo', provisionalPath('demo', await recordOf(t, 'demo')), `Bearer ${await t.token('demo', CLINICIAN, { expiresIn: Math.floor(Date.now() / 1000) - 60 })}`),
  },
  {
    category: 'provisional contours',
    name: 'a record id that walks up the store (../) in the provisional contours path',
    expected: [400, 404],
    run: async (t) => provisionalStatus(t, 'demo', `/api/demo/records/..%2F..%2Facme/contours/provisional`, `Bearer ${await t.token('demo', CLINICIAN)}`),
  },
];
