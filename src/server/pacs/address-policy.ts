/**
 * Where a PACS connection may point. Administrators of a tenant set the addresses, and the server
 * calls them: a hospital's PACS is usually on its internal network, so private addresses are
 * allowed, but link-local ones (169.254.0.0/16, fe80::/10: cloud metadata services that hand out
 * the server's own credentials) and the unspecified address never are. The name is resolved before
 * each call, so a host name that resolves to such an address is refused too.
 */
import { lookup } from 'node:dns/promises';
import net from 'node:net';

export class ForbiddenAddressError extends Error {}

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata', 'instance-data']);

export function isForbiddenAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  const ip = mapped ?? address;
  if (net.isIPv4(ip)) {
    const [a, b] = ip.split('.').map(Number);
    return (a === 169 && b === 254) || a === 0;
  }
  if (net.isIPv6(ip)) {
    const lower = ip.toLowerCase();
    return /^fe[89ab][0-9a-f]:/.test(lower) || lower === '::' || lower === 'fd00:ec2::254';
  }
  return false;
}

/** Throws ForbiddenAddressError when `url`'s host is, or resolves to, a forbidden address. */
export async function assertAllowedPacsUrl(url: string): Promise<void> {
  const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
  if (METADATA_NAMES.has(host.toLowerCase())) throw new ForbiddenAddressError(`${host} is a cloud metadata service, not a PACS`);
  const addresses = net.isIP(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  const forbidden = addresses.find(isForbiddenAddress);
  if (forbidden) throw new ForbiddenAddressError(`${host} is a link-local or unspecified address (${forbidden}), not a PACS`);
}
