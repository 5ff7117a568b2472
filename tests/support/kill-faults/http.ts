/**
 * HTTP to the kill faults' child server with a Host header of our choosing (fetch cannot set it),
 * on 127.0.0.1: plain and watched requests (the moment a body is written is the moment to kill at),
 * the tenant API's GETs, and the browser's sign-in through the server's own identity provider.
 */
import http from 'node:http';
import { embeddedClientId } from '../../../src/server/auth/tenant-directory.ts';
import type { ServerProcess } from './child-server.ts';
import { authorizationRequest } from '../authorization-request.ts';

const REQUEST_DEADLINE_MS = 60_000;

export type Answer = { status: number; headers: http.IncomingHttpHeaders; body: Buffer };
type Request = { method?: string; path: string; host: string; headers?: Record<string, string>; body?: Buffer | string; timeoutMs?: number };

export function send(port: number, request: Request): Promise<Answer> {
  return sendWatched(port, request).answer;
}

/**
 * Sends a request; `written` settles once the whole body has been handed to the socket (the
 * moment to kill at), `answer` with the server's answer or the error the client saw. `onWritten`
 * runs synchronously at that moment.
 */
export function sendWatched(port: number, request: Request, onWritten?: () => void): { written: Promise<void>; answer: Promise<Answer> } {
  let writtenResolve!: () => void;
  let writtenReject!: (error: Error) => void;
  const written = new Promise<void>((resolve, reject) => {
    writtenResolve = resolve;
    writtenReject = reject;
  });
  // Its failure is the answer's too: whoever only waits for the answer hears of it there.
  written.catch(() => {});
  const answer = new Promise<Answer>((resolve, reject) => {
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    const req = http.request({
      host: '127.0.0.1',
      port,
      method: request.method ?? 'GET',
      path: request.path,
      // A connection of its own: none is kept alive to a server about to be killed.
      agent: false,
      headers: { host: request.host, ...(body ? { 'content-length': String(body.length) } : {}), ...request.headers },
    });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${(request.timeoutMs ?? REQUEST_DEADLINE_MS) / 1000} s`)), request.timeoutMs ?? REQUEST_DEADLINE_MS);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) });
      });
      res.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      writtenReject(error);
      reject(error);
    });
    req.end(body, () => {
      onWritten?.();
      writtenResolve();
    });
  });
  return { written, answer };
}

export const json = <T>(answer: Answer): T => JSON.parse(answer.body.toString('utf8')) as T;

export const hostOf = (server: ServerProcess, tenantId: string) => `${tenantId}.localhost:${server.port}`;

const originOf = (server: ServerProcess, tenantId: string) => `http://${hostOf(server, tenantId)}`;

/** A GET of the tenant's API as the token's account. */
export async function apiGet(server: ServerProcess, token: string, url: string, tenantId = 'demo'): Promise<Answer> {
  return send(server.port, { path: url, host: hostOf(server, tenantId), headers: { authorization: `Bearer ${token}` } });
}

export async function apiGetJson<T>(server: ServerProcess, token: string, url: string): Promise<T> {
  const answer = await apiGet(server, token, url);
  if (answer.status !== 200) throw new Error(`GET ${url}: ${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`);
  return json<T>(answer);
}

/**
 * The browser's sign-in through the server's own identity provider, over real HTTP: authorization
 * request with PKCE, the sign-in form, consent, the code exchange. The ID token it issues.
 */
export async function signIn(server: ServerProcess, tenantId: string, email: string, password: string): Promise<string> {
  const host = hostOf(server, tenantId);
  const jar = new Map<string, string>();
  const keep = (setCookie: string[] | undefined) => {
    for (const line of setCookie ?? []) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const value = pair!.slice(eq + 1).trim();
      if (value) jar.set(pair!.slice(0, eq).trim(), value);
      else jar.delete(pair!.slice(0, eq).trim());
    }
  };
  const cookie = () => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const pathOf = (location: string) => (location.startsWith('http') ? new URL(location).pathname + new URL(location).search : location);
  const start = authorizationRequest(originOf(server, tenantId), tenantId);
  const { verifier, redirectUri } = start;
  let url = start.url;
  for (let step = 0; step < 12; step++) {
    const response = await send(server.port, { path: url, host, headers: { cookie: cookie() } });
    keep(response.headers['set-cookie']);
    const location = response.headers.location;
    if (location?.startsWith(redirectUri)) {
      const code = new URL(location).searchParams.get('code');
      if (!code) throw new Error(`sign-in of ${email}: no code in ${location}`);
      const token = await send(server.port, {
        method: 'POST',
        path: '/idp/token',
        host,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: embeddedClientId(tenantId), code_verifier: verifier }).toString(),
      });
      if (token.status !== 200) throw new Error(`sign-in of ${email}: token exchange ${token.status} ${token.body.toString('utf8').slice(0, 300)}`);
      return json<{ id_token: string }>(token).id_token;
    }
    if (location) {
      url = pathOf(location);
      continue;
    }
    const form = /action="([^"]+\/login)"/.exec(response.body.toString('utf8'));
    if (response.status !== 200 || !form) throw new Error(`sign-in of ${email}: ${response.status} at ${url}`);
    const login = await send(server.port, {
      method: 'POST',
      path: pathOf(form[1]!),
      host,
      headers: { cookie: cookie(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email, password }).toString(),
    });
    keep(login.headers['set-cookie']);
    if (!login.headers.location) throw new Error(`sign-in of ${email}: the sign-in form answered ${login.status}`);
    url = pathOf(login.headers.location);
  }
  throw new Error(`sign-in of ${email}: too many redirects`);
}
