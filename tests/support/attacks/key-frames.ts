/**
 * Issue 25, key frames in a saved manifest: a lumen or vessel correction may carry `reachMm`, how far
 * it propagates along the pullback. A client that sends a reach that is no distance the pullback could
 * have (negative, beyond 20 mm, overflowing to Infinity, a string, an object), a key frame with more
 * control points than a contour holds, or a field the schema does not know, is refused with 400 and
 * nothing is saved.
 */
import { sql } from 'drizzle-orm';
import type { Attack, AttackTarget } from '../attack-types.ts';

const CLINICIAN = 'clinician@demo.test';

const ring = (count: number) => Array.from({ length: count }, (_, i) => ({ x: 256 + 80 * Math.cos((2 * Math.PI * i) / count), y: 256 + 80 * Math.sin((2 * Math.PI * i) / count) }));

/** The manifest JSON with one lumen key frame on slice 2 whose fields are `keyFrame`'s (raw JSON, so values JSON.stringify cannot write get through). */
const manifestWith = (keyFrame: string) =>
  `{"ruler":[],"area":[],"text":[],"angle":[],"lastAnnotationSlice":0,"contours":[{"slice":2,"border":"lumen","controlPoints":${JSON.stringify(ring(16))},"source":"manual",${keyFrame}}]}`;

/** Saves `manifest` as a new version of a demo record, as the review's Save does; the status the server answered. */
export async function saveManifest(target: AttackTarget, manifest: string): Promise<number> {
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

const keyFrameAttack = (name: string, keyFrame: string): Attack => ({ category: 'key frames', name, expected: [400], run: (t) => saveManifest(t, manifestWith(keyFrame)) });

export const KEY_FRAME_ATTACKS: readonly Attack[] = [
  keyFrameAttack('a negative reach', '"reachMm":-2'),
  keyFrameAttack('a reach beyond 20 mm', '"reachMm":1e6'),
  keyFrameAttack('a reach that overflows to Infinity', '"reachMm":1e999'),
  keyFrameAttack('a reach as a string', '"reachMm":"2"'),
  keyFrameAttack('a reach as an operator object', '"reachMm":{"$gt":0}'),
  keyFrameAttack('a field the schema does not know', '"reachMm":2,"weight":1e9'),
  keyFrameAttack('a prototype key', '"reachMm":2,"__proto__":{"reachMm":-1}'),
  {
    category: 'key frames',
    name: 'an L-mode drag with more control points than a contour holds',
    expected: [400],
    run: (t) => saveManifest(t, manifestWith('"reachMm":2').replace(JSON.stringify(ring(16)), JSON.stringify(ring(65)))),
  },
];
