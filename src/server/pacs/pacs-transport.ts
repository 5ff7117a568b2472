/**
 * The only way the server reaches a PACS (queries, thumbnails, stores, retrieves, connection tests):
 * fetch on an undici dispatcher whose connector vets the address each socket is opened to. A host
 * name is resolved by the connector itself and every address it resolves to is judged by the
 * address policy before the socket is opened, so what was checked is what is connected to: a name
 * that resolved to a private address when the form was saved and to 169.254.169.254 now (DNS
 * rebinding) is refused at connect time. Redirects are never followed: a PACS that redirects is
 * answered as one that does not speak DICOMweb (its administrator enters the final address).
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, buildConnector, fetch as undiciFetch, type RequestInit, type Response } from 'undici';
import { addressRefusal, ForbiddenAddressError, type AddressPolicy } from './address-policy.ts';

/** dns.lookup's shape with `all: true`, replaceable in tests to play a rebinding resolver. */
export type Resolver = (hostname: string, options: dns.LookupAllOptions, callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, options, callback) => dns.lookup(hostname, options, callback);

/** A redirect from a PACS, not followed. */
export class RedirectRefusedError extends Error {}

/**
 * A lookup for net/tls.connect that resolves the name and refuses the whole connection when any
 * address it resolves to is forbidden (a name with one good and one bad address is not a PACS).
 */
export function vettedLookup(policy: AddressPolicy, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const refused = addresses.map((a) => ({ address: a.address, refusal: addressRefusal(a.address, policy) })).find((a) => a.refusal);
      if (refused || addresses.length === 0) {
        const reason = refused ? `${hostname} resolves to ${refused.address}, ${refused.refusal}` : `${hostname} resolves to nothing`;
        return callback(Object.assign(new ForbiddenAddressError(reason), { code: 'EADDRFORBIDDEN' }), '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

export type PacsTransportOptions = { policy: AddressPolicy; resolve?: Resolver };

export class PacsTransport {
  private readonly dispatcher: Agent;
  readonly policy: AddressPolicy;

  constructor({ policy, resolve }: PacsTransportOptions) {
    this.policy = policy;
    const connect = buildConnector({ lookup: vettedLookup(policy, resolve) } as buildConnector.BuildOptions);
    this.dispatcher = new Agent({
      connect: (options, callback) => {
        // A literal IP is connected to without a lookup: it is judged here instead.
        const host = options.hostname.replace(/^\[|\]$/g, '');
        const refusal = ipaddr.isValid(host) ? addressRefusal(host, policy) : null;
        if (refusal) return callback(new ForbiddenAddressError(`${host} is ${refusal}`), null);
        return connect(options, callback);
      },
    });
  }

  /**
   * fetch through the vetted dispatcher. A redirect rejects with RedirectRefusedError (the body is
   * dropped); a forbidden address rejects with a TypeError whose cause is a ForbiddenAddressError.
   */
  async fetch(url: string, init: Omit<RequestInit, 'dispatcher' | 'redirect'> = {}): Promise<Response> {
    const response = await undiciFetch(url, { ...init, redirect: 'manual', dispatcher: this.dispatcher });
    if ((response.status >= 300 && response.status < 400) || response.type === 'opaqueredirect') {
      await response.body?.cancel().catch(() => undefined);
      throw new RedirectRefusedError(`the PACS redirected (HTTP ${response.status}); redirects are not followed`);
    }
    return response;
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}

/** Whether a failed fetch was refused by the address policy (at connect time). */
export function isForbiddenAddressFailure(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    if (current instanceof ForbiddenAddressError) return true;
    if (current instanceof AggregateError && current.errors.some(isForbiddenAddressFailure)) return true;
  }
  return false;
}
