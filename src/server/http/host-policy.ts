/**
 * Which Host headers this server answers (issue 16). Only the public addresses of its tenants, as
 * PUBLIC_URL_TEMPLATE spells them (tenant label, domain and port), are served: a page from a
 * DNS-rebinding attacker (`demo.evil.example` pointed at this server) must not become same-origin
 * with the product, so any other host gets 421 from the API, the SPA and the identity provider
 * alike. A bare loopback host on the template's port (`localhost:8080`) is only sent on to the
 * default tenant's address, as before.
 */
import { TENANT_ID_PATTERN } from '../../domain/tenant.ts';

export type HostVerdict = { kind: 'tenant'; tenantId: string } | { kind: 'loopback' } | { kind: 'foreign' };

const PLACEHOLDER = 'tenant-placeholder';
const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function createHostPolicy(publicUrlTemplate: string): (host: string | undefined) => HostVerdict {
  const url = new URL(publicUrlTemplate.replace('{tenant}', PLACEHOLDER));
  const defaultPort = DEFAULT_PORTS[url.protocol] ?? '';
  // An explicit default port (`https://x.example:443`) and none at all name the same address.
  const ports = new Set(url.port === '' || url.port === defaultPort ? ['', defaultPort] : [url.port]);
  const label = TENANT_ID_PATTERN.source.replace(/^\^/, '').replace(/\$$/, '');
  const [before, after] = url.hostname.split(PLACEHOLDER) as [string, string];
  const tenantHost = new RegExp(`^${escape(before)}(${label})${escape(after)}$`);
  return (host) => {
    const match = /^(.*?)(?::(\d+))?$/.exec((host ?? '').toLowerCase());
    const [, hostname = '', port = ''] = match ?? [];
    if (!ports.has(port)) return { kind: 'foreign' };
    const tenant = tenantHost.exec(hostname);
    if (tenant?.[1]) return { kind: 'tenant', tenantId: tenant[1] };
    if (hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]') return { kind: 'loopback' };
    return { kind: 'foreign' };
  };
}
