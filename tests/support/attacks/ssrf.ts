/**
 * Issue 24, item 1: a tenant administrator points a PACS connection at what the server must not
 * reach: its own listeners (the attack target's own port) through loopback and unspecified
 * addresses written as IPv6, and the cloud metadata service in its IPv6 disguises. Each is refused
 * with 400 before anything is connected to; a save that got through would answer 201.
 */
import type { Attack, AttackTarget } from '../attack-types.ts';

const admin = (tenantId: string) => `admin@${tenantId}.test`;

async function pacsCall(t: AttackTarget, path: 'connections' | 'connections/test', qidoUrl: string): Promise<number> {
  const authorization = `Bearer ${await t.token('demo', admin('demo'))}`;
  const response = await t.app.inject({
    method: 'POST',
    url: `/api/demo/pacs/${path}`,
    headers: { host: t.hostOf('demo'), authorization, 'content-type': 'application/json' },
    payload: JSON.stringify({ name: 'Not a PACS', qidoUrl, auth: { kind: 'none' } }),
  });
  return response.statusCode;
}

/** "Test connection" aimed at the server's own listening port through `host`. */
const ownPort = (name: string, host: string): Attack => ({
  category: 'ssrf',
  name: `Test connection to the server's own port via ${name} (${host})`,
  expected: [400],
  run: (t) => pacsCall(t, 'connections/test', `http://${host}:${t.port}/dicom-web`),
});

/** A connection saved with the metadata service's address written as `host`. */
const metadata = (name: string, host: string): Attack => ({
  category: 'ssrf',
  name: `a connection to the metadata service via ${name} (${host})`,
  expected: [400],
  run: (t) => pacsCall(t, 'connections', `http://${host}/latest/meta-data`),
});

export const SSRF_ATTACKS: readonly Attack[] = [
  ownPort('IPv4-mapped unspecified', '[::ffff:0.0.0.0]'),
  ownPort('IPv6 unspecified', '[::]'),
  ownPort('IPv4 unspecified', '0.0.0.0'),
  ownPort('IPv4-mapped loopback, hex', '[::ffff:7f00:1]'),
  ownPort('IPv4-compatible loopback', '[::127.0.0.1]'),
  ownPort('NAT64 loopback', '[64:ff9b::7f00:1]'),
  ownPort('6to4 loopback', '[2002:7f00:1::]'),
  ownPort('IPv6 loopback', '[::1]'),
  ownPort('a name that resolves to loopback', 'localhost'),
  ownPort('a decimal IPv4 loopback', '2130706433'),
  metadata('IPv4-mapped, hex', '[::ffff:a9fe:a9fe]'),
  metadata('IPv4-mapped, dotted', '[::ffff:169.254.169.254]'),
  metadata('IPv4-compatible', '[::169.254.169.254]'),
  metadata('NAT64', '[64:ff9b::a9fe:a9fe]'),
  metadata('local-use NAT64', '[64:ff9b:1::a9fe:a9fe]'),
  metadata('6to4', '[2002:a9fe:a9fe::]'),
  metadata('Teredo', '[2001:0:a9fe:a9fe::1]'),
  metadata("AWS's IPv6 address", '[fd00:ec2::254]'),
];
