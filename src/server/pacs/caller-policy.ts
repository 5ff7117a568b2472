/**
 * Which calling AE titles, from which addresses, may push into a tenant (issue 24): the tenant's
 * administrators register them (db/dicom-callers.ts); the receiver asks `callerVerdict` at
 * association, before any data.
 */
import net from 'node:net';
import type { Db } from '../db/client.ts';
import { findDicomCallerByAeTitle } from '../db/dicom-callers.ts';

/** A network an administrator typed that does not parse; the message says which. */
export class InvalidNetworkError extends Error {}

/**
 * The networks as Node prints them (`10.1.2.0/24`, `fd00::/8`, a bare address stays bare), or
 * an InvalidNetworkError. Node's BlockList does the matching, IPv4-mapped IPv6 addresses included.
 */
export function normaliseNetworks(networks: readonly string[]): string[] {
  const seen = new Set<string>();
  for (const text of networks) {
    const [address = '', prefixText] = text.split('/');
    const family = net.isIP(address);
    const max = family === 4 ? 32 : 128;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (family === 0 || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      throw new InvalidNetworkError(`"${text}" is not an address or network (e.g. 10.1.2.3, 10.1.2.0/24 or fd00::/8)`);
    }
    // The address as Node prints it (FD00:0::1 is fd00::1), so the list shows each network once.
    const canonical = new net.SocketAddress({ address, family: family === 4 ? 'ipv4' : 'ipv6' }).address;
    seen.add(prefix === max ? canonical : `${canonical}/${prefix}`);
  }
  return [...seen];
}

/** Whether a registered caller may call from this address (no networks: from anywhere). */
export function addressAllowed(networks: readonly string[], remoteAddress: string): boolean {
  if (networks.length === 0) return true;
  const family = net.isIP(remoteAddress);
  if (family === 0) return false;
  const list = new net.BlockList();
  for (const entry of networks) {
    const [address = '', prefix] = entry.split('/');
    const type = net.isIP(address) === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list.check(remoteAddress, family === 4 ? 'ipv4' : 'ipv6');
}

export type CallerVerdict = { accepted: true } | { accepted: false; reason: 'calling AE title not registered' | 'address not registered for this AE title' };

/** Looks the calling AE title up in the tenant's registrations, and the address in its networks. */
export async function callerVerdict(db: Db, tenantId: string, callingAeTitle: string, remoteAddress: string): Promise<CallerVerdict> {
  const caller = await findDicomCallerByAeTitle(db, tenantId, callingAeTitle);
  if (!caller) return { accepted: false, reason: 'calling AE title not registered' };
  if (!addressAllowed(caller.networks, remoteAddress)) return { accepted: false, reason: 'address not registered for this AE title' };
  return { accepted: true };
}
