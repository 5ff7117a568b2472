/**
 * Issue 28, calcium arcs set by hand in a saved manifest (`calcium`: slice, startDeg, arcDeg,
 * nodule). A client that sends degrees that are no angle (negative, over 360°, overflowing to
 * Infinity, a string, an object), two arcs on one slice, a slice beyond the record, a field the
 * schema does not know, or a prototype key, is refused with 400 and nothing is saved.
 */
import { sql } from 'drizzle-orm';
import type { Attack, AttackTarget } from '../attack-types.ts';

const CLINICIAN = 'clinician@demo.test';

/** The manifest JSON whose `calcium` list is `arcs` (raw JSON, so values JSON.stringify cannot write get through). */
const manifestWith = (arcs: string) => `{"ruler":[],"area":[],"text":[],"angle":[],"lastAnnotationSlice":0,"calcium":[${arcs}]}`;

/** Saves `manifest` as a new version of a demo record, as the review's Save does; the status the server answered. */
async function saveManifest(target: AttackTarget, manifest: string): Promise<number> {
  const result = await target.database.db.execute(sql`select id, patient_id from records where tenant_id = 'demo' and bmode_frame_count >= 10 order by id limit 1`);
  const record = (result as unknown as { rows: { id: string; patient_id: string }[] }).rows[0]!;
  const form = new FormData();
  form.append('recordId', record.id);
  form.append('patientId', record.patient_id);
  form.append('file', new Blob([manifest], { type: 'application/json' }), 'manifest.json');
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  const response = await target.app.inject({
    method: 'POST',
    url: '/api/demo/records?status=new',
    headers: { host: target.hostOf('demo'), authorization: `Bearer ${await target.token('demo', CLINICIAN)}`, 'content-type': request.headers.get('content-type')! },
    payload: Buffer.from(await request.arrayBuffer()),
  });
  return response.statusCode;
}

const arcAttack = (name: string, arcs: string): Attack => ({ category: 'calcium arcs', name, expected: [400], run: (t) => saveManifest(t, manifestWith(arcs)) });

export const CALCIUM_ARC_ATTACKS: readonly Attack[] = [
  arcAttack('a negative arc', '{"slice":2,"startDeg":0,"arcDeg":-10}'),
  arcAttack('an arc over 360°', '{"slice":2,"startDeg":0,"arcDeg":720}'),
  arcAttack('a start that overflows to Infinity', '{"slice":2,"startDeg":1e999,"arcDeg":10}'),
  arcAttack('degrees as a string', '{"slice":2,"startDeg":"0","arcDeg":10}'),
  arcAttack('degrees as an operator object', '{"slice":2,"startDeg":0,"arcDeg":{"$gt":0}}'),
  arcAttack('a fractional slice', '{"slice":2.5,"startDeg":0,"arcDeg":10}'),
  arcAttack('a slice beyond the record', '{"slice":1000000,"startDeg":0,"arcDeg":10}'),
  arcAttack('two arcs on one slice', '{"slice":2,"startDeg":0,"arcDeg":10},{"slice":2,"startDeg":90,"arcDeg":40}'),
  arcAttack('a field the schema does not know', '{"slice":2,"startDeg":0,"arcDeg":10,"weight":1e9}'),
  arcAttack('a prototype key', '{"slice":2,"startDeg":0,"arcDeg":10,"__proto__":{"arcDeg":-1}}'),
  arcAttack('a nodule that is not true or false', '{"slice":2,"startDeg":0,"arcDeg":10,"nodule":"yes"}'),
];
