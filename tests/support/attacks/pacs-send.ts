/**
 * Issue 28, "Send to PACS" with gating: the request may say only that the review's gating was on
 * (`gating: true`); the server gates the record's frames itself. A client that sends gating as
 * anything but a boolean, or slips its own gated frames, heart rate or stent figures into the
 * request for the reports to carry, is refused with 400 before any PACS is called.
 */
import { sql } from 'drizzle-orm';
import type { Attack, AttackTarget } from '../attack-types.ts';

const CLINICIAN = 'clinician@demo.test';
/** Any well-formed id: the body is refused before the connection is looked up. */
const CONNECTION = '00000000-0000-4000-8000-000000000000';

/** POSTs `body` (raw JSON) to a demo IVUS record's pacs-send as a clinician; the status answered. */
async function send(target: AttackTarget, body: string): Promise<number> {
  const result = await target.database.db.execute(sql`select id from records where tenant_id = 'demo' and imaging_kind = 'ivus' order by id limit 1`);
  const record = (result as unknown as { rows: { id: string }[] }).rows[0]!;
  const response = await target.app.inject({
    method: 'POST',
    url: `/api/demo/records/${record.id}/pacs-send`,
    headers: { host: target.hostOf('demo'), authorization: `Bearer ${await target.token('demo', CLINICIAN)}`, 'content-type': 'application/json' },
    payload: body,
  });
  return response.statusCode;
}

const sendAttack = (name: string, fields: string): Attack => ({ category: 'pacs send', name, expected: [400], run: (t) => send(t, `{"connectionId":"${CONNECTION}",${fields}}`) });

export const PACS_SEND_ATTACKS: readonly Attack[] = [
  sendAttack('gating as a string', '"gating":"true"'),
  sendAttack('gating as a number', '"gating":1'),
  sendAttack('gating as an operator object', '"gating":{"$ne":false}'),
  sendAttack('the client’s own end-diastolic frames', '"gating":true,"endDiastolicFrames":[0,30,60]'),
  sendAttack('the client’s own heart rate', '"gating":true,"heartRateBpm":60'),
  sendAttack('the client’s own stent figures', '"stent":{"msa":{"slice":1,"areaMm2":99}}'),
  sendAttack('a prototype key', '"gating":true,"__proto__":{"gating":false}'),
];
