/**
 * The CORS rule the bucket needs when browsers fetch frame chunks from it (FRAMES_FROM_STORE): GET
 * and HEAD from the tenants' origins only. S3 allows one `*` in an origin, which stands for the
 * tenant label of PUBLIC_URL_TEMPLATE (`https://{tenant}.example.org` -> `https://*.example.org`).
 * Apply it once with the store's own tools (`aws s3api put-bucket-cors`, `mc cors set`...): the
 * replicas' keys need not be allowed to change bucket settings.
 */
export function frameCorsConfiguration(publicUrlTemplate: string): string {
  const origin = publicUrlTemplate.replace(/\/+$/, '').replace('{tenant}', '*');
  const xml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return [
    '<CORSConfiguration xmlns="http://s3.amazonaws.com/doc/2006-03-01/">',
    '  <CORSRule>',
    `    <AllowedOrigin>${xml(origin)}</AllowedOrigin>`,
    '    <AllowedMethod>GET</AllowedMethod>',
    '    <AllowedMethod>HEAD</AllowedMethod>',
    '    <MaxAgeSeconds>3600</MaxAgeSeconds>',
    '  </CORSRule>',
    '</CORSConfiguration>',
  ].join('\n');
}

/**
 * The same rule for the frames CDN (deploy/cdn/nginx.conf.template): a regular expression matching
 * exactly the tenants' origins, the tenant label standing where `{tenant}` is (`[a-z0-9-]+`, as
 * DEFAULT_TENANT and the tenant names allow).
 */
export function frameCorsOriginPattern(publicUrlTemplate: string): string {
  const [before, after] = publicUrlTemplate.replace(/\/+$/, '').split('{tenant}') as [string, string];
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return `^${escape(before)}[a-z0-9-]+${escape(after ?? '')}$`;
}
