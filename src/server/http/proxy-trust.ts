/**
 * Which X-Forwarded-For entries to believe (issue 24). Each proxy appends the address it saw, so
 * only the right-most entries, written by proxies we run, are true; anything to their left was
 * written by the client and may be anything. TRUST_PROXY names those proxies:
 * - `false`: no proxy; the socket's peer is the client, X-Forwarded-* are ignored;
 * - a number of hops N (`true` means 1): the N nearest hops are proxies, and the client is the
 *   address the last of them saw;
 * - addresses or CIDRs (`10.0.0.0/8,192.0.2.7`, or `loopback`, `linklocal`, `uniquelocal`): hops from
 *   those addresses are proxies, and the client is the first address from the right that is not one.
 * Fastify (proxy-addr, see fastifyTrustProxy) applies it to request.ip, request.protocol and request.host; it never takes the
 * left-most, client-written entry unless every hop before it is trusted.
 */
import net from 'node:net';

export type ProxyTrust = false | number | readonly string[];

const NAMED_RANGES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (NAMED_RANGES.has(entry)) return true;
  const [address = '', prefix, extra] = entry.split('/');
  const family = net.isIP(address);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** The trust a TRUST_PROXY value names, or an error message. */
export function parseProxyTrust(value: string): { ok: true; trust: ProxyTrust } | { ok: false; message: string } {
  const text = value.trim().toLowerCase();
  if (['false', '0', 'no', ''].includes(text)) return { ok: true, trust: false };
  // The old boolean meaning: one proxy in front (it now trusts that proxy only, not the client's entries).
  if (['true', 'yes'].includes(text)) return { ok: true, trust: 1 };
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 16 ? { ok: true, trust: hops } : { ok: false, message: 'a number of proxy hops must be at most 16' };
  }
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const bad = entries.filter((entry) => !isAddressOrCidr(entry));
  if (bad.length) {
    return { ok: false, message: `must be false, true, a number of proxy hops, or proxy addresses/CIDRs (not ${bad.map((b) => JSON.stringify(b)).join(', ')})` };
  }
  return { ok: true, trust: entries };
}

/**
 * The value for Fastify's `trustProxy` option. A hop count is given as a function: Fastify 5 reads a
 * bare number as "trust nothing", and `true` would trust every hop, the client's own entries too.
 * Hop 0 is the socket's peer, hop 1 the right-most X-Forwarded-For entry, and so on.
 */
export function fastifyTrustProxy(trust: ProxyTrust): false | string[] | ((address: string, hop: number) => boolean) {
  if (trust === false || trust === 0) return false;
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return [...trust];
}
