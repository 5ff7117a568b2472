/**
 * Which addresses the server may connect to on a tenant administrator's behalf (the PACS
 * connections). A hospital's PACS is on its internal network, so private addresses (10/8,
 * 172.16/12, 192.168/16, 100.64/10, fc00::/7) and public ones are allowed. Never allowed: link-local
 * addresses (169.254/16, fe80::/10: the cloud metadata services that hand out the server's own
 * credentials), the known metadata addresses outside those ranges, unspecified, broadcast, multicast
 * and reserved addresses, and (unless the server is configured to allow it, as the test suites do
 * for their Orthanc) the server's own loopback: a tenant administrator must not reach services that
 * listen on the server's machine only.
 *
 * IPv6 addresses that carry an IPv4 address (IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible
 * `::a.b.c.d`, SIIT `::ffff:0:a.b.c.d`, NAT64 64:ff9b::/96 and 64:ff9b:1::/48, 6to4 2002::/16,
 * Teredo 2001::/32, ISATAP) are judged by the IPv4 address they carry: `[::ffff:a9fe:a9fe]` is
 * 169.254.169.254. Parsing is ipaddr.js's, never a regular expression.
 *
 * This module only judges addresses; pacs-transport.ts applies it to the address each connection is
 * actually opened to, after DNS, so a name that resolves elsewhere by the time of the call (DNS
 * rebinding) is refused too.
 */
import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';

export type AddressPolicy = {
  /** Allow 127.0.0.0/8 and ::1 (PACS_ALLOW_LOOPBACK: a PACS on the server's own machine, as in the tests). */
  allowLoopback: boolean;
};

export const DEFAULT_ADDRESS_POLICY: AddressPolicy = { allowLoopback: false };

export class ForbiddenAddressError extends Error {}

/** Host names of cloud metadata services (they resolve to link-local addresses, refused anyway; named here for a clearer message). */
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.com']);

/** Metadata services at addresses outside the link-local ranges: Alibaba Cloud (in 100.64/10), Azure's WireServer, AWS over IPv6. */
const METADATA_ADDRESSES = new Set(['100.100.100.200', '168.63.129.16', 'fd00:ec2::254']);

const ALLOWED_IPV4_RANGES = new Set(['unicast', 'private', 'carrierGradeNat', 'as112', 'amt']);
/** IPv6 ranges allowed as such; the ones that embed an IPv4 address are judged by it as well. */
const ALLOWED_IPV6_RANGES = new Set(['unicast', 'uniqueLocal', 'ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo', 'as112v6', 'amt']);

const v4 = (bytes: readonly number[]) => new ipaddr.IPv4(bytes.slice(0, 4));

/**
 * The IPv4 addresses an IPv6 address carries (RFC 4291, 6052, 6145, 3056, 4380, 5214), each with
 * the name of the form. Where the position is not fixed (64:ff9b:1::/48 may use any RFC 6052
 * prefix length), every possible position is returned, and all of them must be allowed.
 */
export function embeddedIPv4(address: ipaddr.IPv6): Array<{ form: string; ipv4: ipaddr.IPv4 }> {
  const b = address.toByteArray();
  const zero = (from: number, to: number) => b.slice(from, to).every((byte) => byte === 0);
  const last32 = v4(b.slice(12, 16));
  const found: Array<{ form: string; ipv4: ipaddr.IPv4 }> = [];
  const range = address.range();
  if (range === 'ipv4Mapped') found.push({ form: 'IPv4-mapped', ipv4: last32 });
  if (range === 'rfc6145') found.push({ form: 'IPv4-translated', ipv4: last32 });
  // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); :: and ::1 are themselves.
  if (zero(0, 12) && range !== 'unspecified' && range !== 'loopback') found.push({ form: 'IPv4-compatible', ipv4: last32 });
  if (range === 'rfc6052') {
    found.push({ form: 'NAT64', ipv4: last32 });
    if (address.match(ipaddr.IPv6.parse('64:ff9b:1::'), 48)) {
      // RFC 6052 section 2.2: bits 64-71 are zero, so a /48, /56 or /64 prefix splits the address around them.
      found.push({ form: 'NAT64 /48', ipv4: v4([b[6]!, b[7]!, b[9]!, b[10]!]) });
      found.push({ form: 'NAT64 /56', ipv4: v4([b[7]!, b[9]!, b[10]!, b[11]!]) });
      found.push({ form: 'NAT64 /64', ipv4: v4(b.slice(9, 13)) });
    }
  }
  if (range === '6to4') found.push({ form: '6to4', ipv4: v4(b.slice(2, 6)) });
  if (range === 'teredo') {
    found.push({ form: 'Teredo server', ipv4: v4(b.slice(4, 8)) });
    // The client's address is stored with every bit inverted.
    found.push({ form: 'Teredo client', ipv4: v4(b.slice(12, 16).map((byte) => byte ^ 0xff)) });
  }
  // ISATAP: an interface identifier of 0000:5efe or 0200:5efe followed by the IPv4 address.
  if ((b[8] === 0 || b[8] === 2) && b[9] === 0 && b[10] === 0x5e && b[11] === 0xfe) found.push({ form: 'ISATAP', ipv4: last32 });
  return found;
}

function ipv4Refusal(address: ipaddr.IPv4, policy: AddressPolicy): string | null {
  if (METADATA_ADDRESSES.has(address.toString())) return 'a cloud metadata service';
  const range = address.range();
  if (range === 'loopback') return policy.allowLoopback ? null : "the server's own loopback";
  if (range === 'linkLocal') return 'link-local (cloud metadata services live there)';
  if (range === 'unspecified') return 'the unspecified address (it reaches the server itself)';
  return ALLOWED_IPV4_RANGES.has(range) ? null : `a ${range} address`;
}

/**
 * Why the server must not connect to this IP address (a sentence part), or null when it may.
 * Anything that is not an IP address is refused: callers resolve names first.
 */
export function addressRefusal(address: string, policy: AddressPolicy): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // Strict parsing: the URL parser has already turned 127.1 or 0x7f.1 into dotted quads.
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, ''));
  } catch {
    return 'not an IP address';
  }
  if (parsed.kind() === 'ipv4') return ipv4Refusal(parsed as ipaddr.IPv4, policy);
  const ipv6 = parsed as ipaddr.IPv6;
  if (ipv6.zoneId) return 'an address with a zone (link-local)';
  if (METADATA_ADDRESSES.has(ipv6.toString())) return 'a cloud metadata service';
  for (const { form, ipv4 } of embeddedIPv4(ipv6)) {
    const refusal = ipv4Refusal(ipv4, policy);
    if (refusal) return `${refusal} (${ipv4.toString()}, ${form})`;
  }
  const range = ipv6.range();
  if (range === 'loopback') return policy.allowLoopback ? null : "the server's own loopback";
  if (range === 'linkLocal') return 'link-local (cloud metadata services live there)';
  if (range === 'unspecified') return 'the unspecified address (it reaches the server itself)';
  return ALLOWED_IPV6_RANGES.has(range) ? null : `a ${range} address`;
}

/**
 * Throws ForbiddenAddressError when `url`'s host is, or now resolves to, an address the policy
 * refuses: the early check that lets an administrator's form say what is wrong (400). The check
 * that protects is the one at connect time (pacs-transport.ts).
 */
export async function assertAllowedPacsUrl(url: string, policy: AddressPolicy): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (METADATA_NAMES.has(host.toLowerCase().replace(/\.$/, ''))) throw new ForbiddenAddressError(`${host} is a cloud metadata service, not a PACS`);
  const addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  for (const address of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw new ForbiddenAddressError(`${host}${address === host ? '' : ` (${address})`} is ${refusal}, not a PACS`);
  }
}
