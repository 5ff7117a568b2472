/** A tenant id is a DNS label: lower-case letters, digits and inner hyphens. */
export const TENANT_ID_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function isTenantId(value: string): boolean {
  return TENANT_ID_PATTERN.test(value);
}

/**
 * The tenant is the first label of the host name the app is served from
 * (`demo.localhost:8080` -> `demo`). A bare host with one label (`localhost`)
 * or an IP address names no tenant.
 */
export function tenantFromHost(host: string | undefined | null): string | null {
  if (!host) return null;
  const hostname = host.replace(/:\d+$/, '').toLowerCase();
  if (/^[\d.]+$/.test(hostname) || hostname.startsWith('[')) return null;
  const labels = hostname.split('.');
  if (labels.length < 2) return null;
  const first = labels[0] ?? '';
  return isTenantId(first) ? first : null;
}
