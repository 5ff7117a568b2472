/**
 * A real S3-compatible server for the storage tests: s3rver (from npm) keeping a bucket in a
 * throw-away directory, started in-process on a free loopback port, so GET/PUT/DELETE and
 * ListObjectsV2 (continuation tokens, 1,000 keys a page, NoSuchKey/NoSuchBucket errors) are
 * answered by a server the project did not write.
 *
 * s3rver 3.7.1 does not check Signature V4: for an `AWS4-HMAC-SHA256` Authorization header it
 * checks only that the access key id exists ("Signature version 4 calculation is unimplemented"
 * in its lib/middleware/authentication.js, whatever `allowMismatchedSignatures` says), and it lets
 * unsigned requests in. So the port the tests talk to is a thin front that checks every request's
 * Signature V4 the way S3 does (`checkSignatureV4`, itself checked against AWS's published
 * examples in tests/server/storage/blob-store.test.ts) and hands the requests it accepts, unchanged, to
 * s3rver; those it refuses get S3's error XML (SignatureDoesNotMatch, InvalidAccessKeyId...).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { makePutsAtomic, type S3rverFilesystemStore } from './s3rver-atomic-put.ts';

export type S3ServerHandle = {
  /** `http://127.0.0.1:PORT`, for path-style requests (`/{bucket}/{key}`). */
  endpoint: string;
  /**
   * s3rver's own port, behind no signature check (it takes unsigned GETs): the origin a CDN in front
   * of the bucket fetches from, as a bucket private to the CDN would be (deploy/cdn).
   */
  origin: string;
  /** A bucket created at start. */
  bucket: string;
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Creates one more empty bucket and answers its name. */
  createBucket(): Promise<string>;
  /** What browsers fetched with presigned URLs, and what was refused (counted at the front, since start). */
  presignedGets(): PresignedGetStats;
  stop(): Promise<void>;
};

export type PresignedGetStats = { served: number; bytes: number; refused: { code: string; url: string }[] };

export type S3ServerOptions = {
  /** The bucket's CORS rule (frame-cors.ts) for browsers fetching from it; none: no CORS, as a new bucket. */
  corsConfiguration?: string;
};

export type SignedRequest = { method: string; /** Path and query as sent. */ url: string; headers: http.IncomingHttpHeaders; body: Uint8Array };
export type S3Credentials = { accessKeyId: string; secretAccessKey: string; region: string };
export type S3Refusal = { status: number; code: string; message: string };

/** The little of s3rver's (untyped, CommonJS) API used here. */
type S3rverOptions = {
  address: string;
  port: number;
  silent: boolean;
  directory: string;
  vhostBuckets: boolean;
  allowMismatchedSignatures: boolean;
  resetOnClose: boolean;
  configureBuckets: { name: string; configs?: string[] }[];
};
type S3rverInstance = { run(): Promise<AddressInfo>; close(): Promise<void>; store: S3rverFilesystemStore & { putBucket(name: string): Promise<unknown> } };
type S3rverAccount = { createKeyPair(accessKeyId: string, secretAccessKey: string): void; revokeAccessKey(accessKeyId: string): void };

const load = createRequire(import.meta.url);
const S3rver = load('s3rver') as new (options: S3rverOptions) => S3rverInstance;
/** s3rver answers InvalidAccessKeyId for key ids its account registry does not hold; ours is added there. */
const { DUMMY_ACCOUNT } = load('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: S3rverAccount };

const REGION = 'us-east-1';
let bucketsCreated = 0;

/** The server's settings for storing in this bucket (STORAGE=s3 and the S3_* variables). */
export function s3StorageEnv(s3: S3ServerHandle, bucket = s3.bucket): Record<string, string> {
  return { STORAGE: 's3', S3_ENDPOINT: s3.endpoint, S3_BUCKET: bucket, S3_REGION: s3.region, S3_ACCESS_KEY_ID: s3.accessKeyId, S3_SECRET_ACCESS_KEY: s3.secretAccessKey };
}

/** Starts s3rver with a bucket and its signature-checking front; `stop()` removes its directory. */
export async function startS3Server(options: S3ServerOptions = {}): Promise<S3ServerHandle> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-s3rver-'));
  const bucket = 'frames';
  const credentials: S3Credentials = { accessKeyId: `IVUSTEST${randomBytes(6).toString('hex').toUpperCase()}`, secretAccessKey: randomBytes(30).toString('base64'), region: REGION };
  DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);

  const s3rver = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    vhostBuckets: false,
    allowMismatchedSignatures: false,
    resetOnClose: false,
    configureBuckets: [{ name: bucket, configs: options.corsConfiguration ? [options.corsConfiguration] : [] }],
  });
  makePutsAtomic(s3rver.store);
  const inner = await s3rver.run();

  const stats: PresignedGetStats = { served: 0, bytes: 0, refused: [] };
  const front = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const presigned = /[?&]X-Amz-Algorithm=/.test(request.url ?? '');
      // A CORS preflight carries no credentials anywhere, on S3 too: the bucket's CORS rule answers it.
      const refusal = request.method === 'OPTIONS' ? null : checkSignatureV4({ method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, body }, credentials);
      if (refusal && presigned) stats.refused.push({ code: refusal.code, url: request.url ?? '' });
      if (refusal) return void sendError(response, refusal);
      const upstream = http.request({ host: inner.address, port: inner.port, method: request.method, path: request.url, headers: request.headers }, (answer) => {
        // A client already gone (a replica killed mid-request) takes nothing: pipeline throws on a destroyed stream.
        if (response.destroyed) return void answer.resume();
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        if (presigned && answer.statusCode === 200) {
          stats.served++;
          answer.on('data', (part: Buffer) => (stats.bytes += part.length));
        }
        // An upstream answer cut short must cut the browser's too: piped without this, the browser
        // was left waiting for the rest of a Content-Length that would never come.
        pipeline(answer, response, () => undefined);
      });
      upstream.on('error', (error) => response.destroy(error));
      upstream.end(body);
    });
  });
  // A free port on loopback, taken by listening on port 0 (no window for another process to take it).
  await new Promise<void>((resolve, reject) => {
    front.once('error', reject);
    front.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = front.address() as AddressInfo;

  return {
    endpoint: `http://127.0.0.1:${port}`,
    origin: `http://${inner.address}:${inner.port}`,
    bucket,
    region: credentials.region,
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    async createBucket() {
      const name = `${bucket}-${++bucketsCreated}`;
      await s3rver.store.putBucket(name);
      return name;
    },
    presignedGets: () => structuredClone(stats),
    async stop() {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await s3rver.close();
      DUMMY_ACCOUNT.revokeAccessKey(credentials.accessKeyId);
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Checks a request's AWS Signature V4 (Authorization header form) as S3 does: the key id, the
 * credential scope (date, region, `s3`, `aws4_request`), the clock (15 minutes), that every
 * `x-amz-*` header is signed, the payload hash (unless UNSIGNED-PAYLOAD) and the signature over
 * the canonical request. Answers null for a good request, else the refusal S3 would send.
 */
export function checkSignatureV4(request: SignedRequest, credentials: S3Credentials, now = new Date()): S3Refusal | null {
  const header = (name: string): string | undefined => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(',') : value;
  };
  const queryAt = request.url.indexOf('?');
  const rawPath = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
  const rawQuery = queryAt < 0 ? '' : request.url.slice(queryAt + 1);
  const query = new URLSearchParams(rawQuery);
  const presigned = query.has('X-Amz-Algorithm');
  const authorization = header('authorization');
  let credential: string, signedHeaderList: string, signature: string, amzDate: string, payloadHash: string | undefined;
  /** A presigned URL's lifetime (X-Amz-Expires), in seconds. */
  let expires: number | null = null;
  if (presigned) {
    if (authorization) return { status: 400, code: 'InvalidArgument', message: 'Only one auth mechanism allowed; only the X-Amz-Algorithm query parameter or the Authorization header should be specified' };
    if (query.get('X-Amz-Algorithm') !== 'AWS4-HMAC-SHA256') return { status: 400, code: 'AuthorizationQueryParametersError', message: 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"' };
    credential = query.get('X-Amz-Credential') ?? '';
    signedHeaderList = query.get('X-Amz-SignedHeaders') ?? '';
    signature = /^[0-9a-f]{64}$/.test(query.get('X-Amz-Signature') ?? '') ? query.get('X-Amz-Signature')! : '';
    amzDate = query.get('X-Amz-Date') ?? '';
    expires = /^\d{1,6}$/.test(query.get('X-Amz-Expires') ?? '') ? Number(query.get('X-Amz-Expires')) : NaN;
    if (!credential || !signedHeaderList || !signature || !(expires >= 1 && expires <= 604_800)) {
      return { status: 400, code: 'AuthorizationQueryParametersError', message: 'X-Amz-Credential, -SignedHeaders, -Signature and -Expires (1 to 604800 s) are required' };
    }
    payloadHash = 'UNSIGNED-PAYLOAD';
  } else {
    if (!authorization) return { status: 403, code: 'AccessDenied', message: 'Access Denied: this bucket takes only signed requests' };
    const parts = /^AWS4-HMAC-SHA256 Credential=([^,\s]+),\s*SignedHeaders=([^,\s]+),\s*Signature=([0-9a-f]{64})$/.exec(authorization);
    if (!parts) return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'The authorization header is malformed; expected AWS4-HMAC-SHA256 Credential=..., SignedHeaders=..., Signature=...' };
    [, credential = '', signedHeaderList = '', signature = ''] = parts;
    amzDate = header('x-amz-date') ?? '';
    payloadHash = header('x-amz-content-sha256');
  }
  const [accessKeyId, day, region, service, terminator, ...rest] = credential.split('/');
  if (accessKeyId !== credentials.accessKeyId) return { status: 403, code: 'InvalidAccessKeyId', message: 'The AWS Access Key Id you provided does not exist in our records.' };
  if (!day || service !== 's3' || terminator !== 'aws4_request' || rest.length) {
    return { status: 400, code: 'AuthorizationHeaderMalformed', message: `The authorization header is malformed; the credential scope '${credential}' is not <date>/<region>/s3/aws4_request` };
  }
  if (region !== credentials.region) {
    return { status: 400, code: 'AuthorizationHeaderMalformed', message: `The authorization header is malformed; the region '${region}' is wrong; expecting '${credentials.region}'` };
  }

  const time = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(amzDate);
  if (!time) return { status: 403, code: 'AccessDenied', message: 'AWS authentication requires a valid x-amz-date header' };
  if (amzDate.slice(0, 8) !== day) return { status: 403, code: 'SignatureDoesNotMatch', message: `The credential date ${day} is not the day of x-amz-date ${amzDate}` };
  const [, y, mo, d, h, mi, s] = time.map(Number) as [number, number, number, number, number, number, number];
  const signedAt = Date.UTC(y, mo - 1, d, h, mi, s);
  if (expires !== null) {
    // A presigned URL works from its date (S3 allows no more than 15 minutes' skew ahead) until date + X-Amz-Expires.
    if (now.getTime() > signedAt + expires * 1000) return { status: 403, code: 'AccessDenied', message: 'Request has expired' };
    if (signedAt - now.getTime() > 15 * 60_000) return { status: 403, code: 'AccessDenied', message: 'Request is not valid yet' };
  } else if (Math.abs(now.getTime() - signedAt) > 15 * 60_000) {
    return { status: 403, code: 'RequestTimeTooSkewed', message: 'The difference between the request time and the current time is too large.' };
  }

  const signedHeaders = signedHeaderList.split(';');
  if (!signedHeaders.includes('host') || signedHeaders.join(';') !== [...signedHeaders].sort().join(';')) {
    return { status: 400, code: 'AuthorizationHeaderMalformed', message: 'The authorization header is malformed; SignedHeaders must be sorted and include host' };
  }
  const unsigned = Object.keys(request.headers).filter((name) => name.startsWith('x-amz-') && !signedHeaders.includes(name));
  if (unsigned.length) return { status: 403, code: 'AccessDenied', message: `There were headers present in the request which were not signed: ${unsigned.join(', ')}` };

  if (!payloadHash) return { status: 400, code: 'InvalidRequest', message: 'Missing required header for this request: x-amz-content-sha256' };
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(request.body)) {
    return { status: 400, code: 'XAmzContentSHA256Mismatch', message: "The provided 'x-amz-content-sha256' header does not match what was computed." };
  }

  let canonicalUri: string;
  try {
    // S3 encodes each path segment once (no double encoding, unlike the other services).
    canonicalUri = rawPath.split('/').map((segment) => uriEncode(decodeURIComponent(segment))).join('/');
  } catch {
    return { status: 400, code: 'InvalidURI', message: `Couldn't parse the specified URI: ${rawPath}` };
  }
  const canonicalQuery = [...query]
    // A presigned URL's signature is not part of what it signs.
    .filter(([name]) => !(presigned && name === 'X-Amz-Signature'))
    .map(([name, value]) => [uriEncode(name), uriEncode(value)] as const)
    .sort(([n1, v1], [n2, v2]) => (n1 < n2 ? -1 : n1 > n2 ? 1 : v1 < v2 ? -1 : v1 > v2 ? 1 : 0))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const canonicalHeaders = signedHeaders.map((name) => `${name}:${(header(name) ?? '').trim().replace(/\s+/g, ' ')}\n`).join('');
  const canonicalRequest = [request.method, canonicalUri, canonicalQuery, canonicalHeaders, signedHeaderList, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = [day, region, 's3', 'aws4_request'].reduce<Buffer>((key, part) => hmac(key, part), Buffer.from(`AWS4${credentials.secretAccessKey}`));
  const expected = hmac(signingKey, stringToSign).toString('hex');
  if (!timingSafeEqual(Buffer.from(expected), Buffer.from(signature))) {
    return { status: 403, code: 'SignatureDoesNotMatch', message: 'The request signature we calculated does not match the signature you provided. Check your key and signing method.' };
  }
  return null;
}

function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

function hmac(key: Buffer, data: string): Buffer {
  return createHmac('sha256', key).update(data, 'utf8').digest();
}

/** AWS's UriEncode: every byte but the unreserved A-Z a-z 0-9 - . _ ~ as %XX. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function sendError(response: http.ServerResponse, refusal: S3Refusal): void {
  const xml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${refusal.code}</Code><Message>${xml(refusal.message)}</Message></Error>`;
  response.writeHead(refusal.status, { 'content-type': 'application/xml', 'content-length': Buffer.byteLength(body) }).end(body);
}
