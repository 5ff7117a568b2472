import { availableParallelism } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_IMPORT_MAX_FILE_BYTES } from '../domain/imports.ts';
import { DEFAULT_IMPORT_MEMORY_BUDGET_BYTES } from './dicom/budgets.ts';
import { KeyEncryptionKey } from './crypto/key-encryption-key.ts';
import { parseProxyTrust, type ProxyTrust } from './http/proxy-trust.ts';
import { MIN_CDN_KEY_BYTES } from './storage/cdn-url.ts';
import { DEFAULT_SIGNED_URL_SECONDS, MAX_SIGNED_URL_SECONDS } from './storage/signed-url.ts';

/**
 * Every setting of the server, read once from the environment and validated. A bad value
 * stops the process with a message naming the variable.
 */
const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'], { error: 'must be true or false' })
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  /** Interface to listen on; loopback by default so a developer's machine does not serve patient data to the network. */
  HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * The public address of a tenant, with `{tenant}` standing for its name. Defaults to
   * `http://{tenant}.localhost:{PORT}`. Behind a proxy: `https://{tenant}.example.org`.
   */
  PUBLIC_URL_TEMPLATE: z
    .string()
    .refine((v) => v.includes('{tenant}'), 'must contain {tenant}')
    // The tenant is read from the host's first label (domain/tenant.ts), and hosts are checked against the template.
    .refine((v) => !v.includes('{tenant}') || /^https?:\/\/\{tenant\}\./.test(v), 'must start with http(s)://{tenant}. (the tenant is the first label of the host name)')
    .refine((v) => URL.canParse(v.replace('{tenant}', 'demo')), 'must be an absolute URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('data'),
  /** PostgreSQL connection string; when unset an embedded PGlite database lives in DATA_DIR. */
  DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\//.test(v), 'must start with postgres:// or postgresql://')
    .optional(),
  /**
   * Encrypts the stored signing and cookie keys (32 bytes, base64 or base64url). Required with
   * DATABASE_URL; the embedded database generates one into DATA_DIR/key-encryption-key when unset.
   */
  KEY_ENCRYPTION_KEY: z
    .string()
    .transform((v, ctx) => {
      try {
        return KeyEncryptionKey.parse(v);
      } catch (error) {
        // The message never repeats the value: it is a secret.
        ctx.addIssue({ code: 'custom', message: `${(error as Error).message} (32 random bytes, e.g. \`openssl rand -base64 32\`)` });
        return z.NEVER;
      }
    })
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Seed the demo tenants, users and patients on start (never overwrites existing rows). */
  SEED_DEMO: booleanFromEnv.default(true),
  /** Also seed the `large` tenant with 10,000 patients (used by paging tests). */
  SEED_LARGE_TENANT: booleanFromEnv.default(false),
  /** Lifetime of ID and access tokens issued by the embedded provider, in seconds. */
  TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(86_400).default(3600),
  /** Lifetime of the provider's sign-in session, in seconds. */
  SESSION_TTL_SECONDS: z.coerce.number().int().min(60).max(30 * 86_400).default(12 * 3600),
  /** A signed-in request's body, uploads included, must deliver BODY_MIN_BYTES_PER_SECOND in every window of this many seconds (else 408). */
  BODY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /** The least a signed-in body must deliver per second, averaged over each BODY_TIMEOUT_SECONDS. */
  BODY_MIN_BYTES_PER_SECOND: z.coerce.number().int().min(0).max(1024 * 1024 * 1024).default(1024),
  /** A body of a request that is not signed in (sign-in forms, the provider's token endpoint) must be complete within this many seconds. */
  UNAUTHENTICATED_BODY_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  /** Connections one client address may hold open at once; 0: no cap. Default 128, or 0 behind TRUST_PROXY (the proxy limits its clients). */
  MAX_CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).max(1_000_000).optional(),
  /** A whole request, uploads included, must arrive within this many seconds. */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(86_400).default(3600),
  /** The proxies whose X-Forwarded-* headers are believed: false, true (one hop), a number of hops, or addresses/CIDRs (http/proxy-trust.ts). */
  TRUST_PROXY: z
    .string()
    .transform((value, ctx): ProxyTrust => {
      const parsed = parseProxyTrust(value);
      if (parsed.ok) return parsed.trust;
      ctx.addIssue({ code: 'custom', message: parsed.message });
      return z.NEVER;
    })
    .default(false),
  /** Generate the demo records' imaging in the background after start-up, when the workers are idle (off by default under NODE_ENV=test). */
  PREGENERATE_DEMO: booleanFromEnv.optional(),
  /** Benches only: a file to which each demo chunk's steps (asked, made, stored, sent) are appended as JSON lines. */
  IMAGING_TIMELINE_FILE: z.string().min(1).optional(),
  /** Worker threads generating demo imaging; 0 generates on the main thread (tests). */
  IMAGING_WORKERS: z.coerce.number().int().min(0).max(64).optional(),
  /** Where frames and files are kept: `local` (DATA_DIR/files) or `s3` (the S3_* settings). */
  STORAGE: z.enum(['local', 's3'], { error: 'must be local or s3' }).default('local'),
  S3_ENDPOINT: z.url({ error: 'must be an absolute URL' }).optional(),
  S3_BUCKET: z.string().min(1).optional(),
  S3_REGION: z.string().min(1).default('us-east-1'),
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** The address browsers reach the bucket by when it is not S3_ENDPOINT (a CDN or proxy in front of it that passes its Host on). */
  S3_PUBLIC_ENDPOINT: z.url({ error: 'must be an absolute URL' }).optional(),
  /** How long a signed frame URL handed to a browser works, in seconds. */
  S3_SIGNED_URL_SECONDS: z.coerce.number().int().min(10).max(MAX_SIGNED_URL_SECONDS).default(DEFAULT_SIGNED_URL_SECONDS),
  /**
   * With STORAGE=s3, the frame route answers a short-lived signed URL and the browser fetches the
   * chunk from the store itself (on by default); false: the replicas send the bytes, as with local storage.
   */
  FRAMES_FROM_STORE: booleanFromEnv.default(true),
  /**
   * The public base URL of a CDN in front of the bucket (deploy/cdn): frame chunks are then handed out
   * as URLs of the CDN signed with FRAME_CDN_KEY instead of the store's own signed URLs. Frames from the store only.
   */
  FRAME_CDN_URL: z
    .url({ error: 'must be an absolute URL' })
    // Checked only of a URL that parses (zod runs each check after a failed one too).
    .refine((v) => !URL.canParse(v) || /^https?:$/.test(new URL(v).protocol), 'must be an http(s) URL')
    .refine((v) => !URL.canParse(v) || !/[?#@]/.test(v.replace(/^[a-z]+:\/\//i, '')), 'must have no query, fragment or credentials')
    .optional(),
  /** The secret the app signs CDN URLs with and the CDN checks them with (at least 32 bytes, e.g. `openssl rand -base64 32`). */
  FRAME_CDN_KEY: z
    .string()
    // The message never repeats the value: it is a secret.
    .refine((v) => Buffer.byteLength(v) >= MIN_CDN_KEY_BYTES, `must be at least ${MIN_CDN_KEY_BYTES} bytes (e.g. \`openssl rand -base64 32\`)`)
    .optional(),
  /** The tenant a bare `localhost` address is sent to. */
  DEFAULT_TENANT: z.string().regex(/^[a-z0-9-]+$/).default('demo'),
  /** Largest DICOM file one import accepts, in bytes (2 GiB by default); uploads stream to DATA_DIR, never into memory. */
  IMPORT_MAX_FILE_BYTES: z.coerce.number().int().min(1).default(DEFAULT_IMPORT_MAX_FILE_BYTES),
  /** Bytes of decoded 8-bit frames one imported file may make (2 GiB by default); a file over it is refused at once. */
  IMPORT_MEMORY_BUDGET_BYTES: z.coerce.number().int().min(1024 * 1024).default(DEFAULT_IMPORT_MEMORY_BUDGET_BYTES),
  /** Port of the DICOM C-STORE receiver (consoles and PACS push studies to it); unset: no receiver. */
  DICOM_RECEIVER_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  /** Interface the receiver listens on (HOST by default). */
  DICOM_RECEIVER_HOST: z.string().min(1).optional(),
  /**
   * The receiver's AE titles and the tenant each one imports into, e.g. `IVUSREVIEW=demo,ACME_IVUS=acme`
   * (default: IVUSREVIEW for the default tenant). A push to any other called AE title is rejected.
   */
  DICOM_RECEIVER_AE_TITLES: z
    .string()
    .transform((value, ctx) => {
      const titles = new Map<string, string>();
      for (const entry of value.split(',').map((e) => e.trim()).filter(Boolean)) {
        const match = /^([ -[\]-~]{1,16})=([a-z0-9-]+)$/.exec(entry);
        const title = match?.[1]?.trim();
        if (!match || !title || title.includes('\\')) {
          ctx.addIssue({ code: 'custom', message: `"${entry}" is not AE_TITLE=tenant (an AE title is 1-16 printable characters, no backslash)` });
          return z.NEVER;
        }
        titles.set(title, match[2]!);
      }
      return titles;
    })
    .optional(),
  /**
   * Let PACS connections point at the server's own loopback (127.0.0.0/8, ::1). Off by default: a
   * tenant administrator must not reach services listening on the server's machine only. The test
   * suites turn it on for their Orthanc on 127.0.0.1.
   */
  PACS_ALLOW_LOOPBACK: booleanFromEnv.default(false),
  /** Connections one client address may hold at the receiver at once (at most half of the 64 it takes in all, so one address never holds every slot); more are closed as they arrive. */
  DICOM_RECEIVER_MAX_ASSOCIATIONS_PER_ADDRESS: z.coerce.number().int().min(1).max(32).default(8),
  /** A receiver connection silent this many seconds (before or within its association) is aborted. */
  DICOM_RECEIVER_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Bytes one DICOM association may bring (16 GiB by default, as an upload). */
  DICOM_RECEIVER_MAX_BYTES: z.coerce.number().int().min(1024 * 1024).default(16 * 1024 ** 3),
  /**
   * A running job (decoding, detection, generation) beats this often; one silent for this long has
   * lost its server, and another takes it. pg-boss's floor is 10 s.
   */
  JOB_HEARTBEAT_SECONDS: z.coerce.number().int().min(10).max(3600).default(30),
  /** How often the queue looks for jobs whose server went silent (and does its housekeeping). */
  JOB_SUPERVISE_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
});

export type Config = {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrlTemplate: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** From KEY_ENCRYPTION_KEY; when undefined (embedded database only) the key file in dataDir is used. */
  keyEncryptionKey: KeyEncryptionKey | undefined;
  logLevel: z.infer<typeof EnvSchema>['LOG_LEVEL'];
  seedDemo: boolean;
  seedLargeTenant: boolean;
  tokenTtlSeconds: number;
  sessionTtlSeconds: number;
  /** Behind a proxy at all (the identity provider then reads X-Forwarded-Proto and -Host). */
  trustProxy: boolean;
  /** Which proxies' X-Forwarded-For entries are believed (http/proxy-trust.ts). */
  proxyTrust: ProxyTrust;
  /** Every request body's minimum pace (http/request-limits.ts). */
  bodyLimits: { windowSeconds: number; minBytesPerSecond: number; unauthenticatedSeconds: number };
  /** Connections one client address may hold open at once; 0: no cap. */
  maxConnectionsPerAddress: number;
  requestTimeoutSeconds: number;
  defaultTenant: string;
  /** Worker threads decoding imports (and, set explicitly, the two below). */
  imagingWorkers: number;
  /** Worker threads generating demo imaging, and as many detecting borders: a core each by default. */
  frameWorkers: number;
  pregenerateDemo: boolean;
  /** IMAGING_TIMELINE_FILE (benches): where the demo chunks' timeline goes, or null. */
  imagingTimelineFile: string | null;
  storage:
    | { kind: 'local' }
    | { kind: 's3'; endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string; publicEndpoint?: string; signedUrlSeconds: number };
  /** Frame chunks go to browsers from the store by signed URLs (S3 only); else the app sends their bytes. */
  framesFromStore: boolean;
  /** With framesFromStore: the CDN in front of the bucket whose signed URLs are handed out instead of the store's. */
  frameCdn: { baseUrl: string; key: string; signedUrlSeconds: number } | null;
  /** Where the built SPA is served from. */
  webRoot: string;
  /** Largest DICOM file one import accepts, in bytes. */
  importMaxFileBytes: number;
  /** Bytes of decoded frames one imported file may make (src/server/dicom/budgets.ts). */
  importMemoryBudgetBytes: number;
  /** The durable job queue's timing (src/server/jobs/job-queue.ts). */
  jobs: { heartbeatSeconds: number; superviseSeconds: number };
  /** The DICOM C-STORE receiver, or null when off (the default). */
  dicomReceiver: {
    port: number;
    host: string;
    aeTitles: ReadonlyMap<string, string>;
    maxAssociationBytes: number;
    maxAssociationsPerAddress: number;
    idleTimeoutSeconds: number;
  } | null;
  /** PACS connections may point at the server's own loopback (src/server/pacs/address-policy.ts). */
  pacsAllowLoopback: boolean;
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (e.STORAGE === 's3') {
    const missing = (['S3_ENDPOINT', 'S3_BUCKET', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const).filter((name) => !e[name]);
    if (missing.length) throw new ConfigError(`Invalid configuration:\n${missing.map((name) => `  ${name}: required when STORAGE=s3`).join('\n')}`);
  }
  const cdnProblem = frameCdnProblem(e);
  if (cdnProblem) throw new ConfigError(`Invalid configuration:\n  ${cdnProblem}`);
  if (e.DATABASE_URL && !e.KEY_ENCRYPTION_KEY) {
    // A generated key would live beside one replica only; with a shared database every replica needs the same key.
    throw new ConfigError(
      'Invalid configuration:\n  KEY_ENCRYPTION_KEY: required with DATABASE_URL (32 random bytes in base64, e.g. `openssl rand -base64 32`, ' +
        'the same on every server; it encrypts the stored signing and cookie keys)',
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    publicUrlTemplate: (e.PUBLIC_URL_TEMPLATE ?? `http://{tenant}.localhost:${e.PORT}`).replace(/\/+$/, ''),
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    keyEncryptionKey: e.KEY_ENCRYPTION_KEY,
    logLevel: e.LOG_LEVEL,
    seedDemo: e.SEED_DEMO,
    seedLargeTenant: e.SEED_LARGE_TENANT,
    tokenTtlSeconds: e.TOKEN_TTL_SECONDS,
    sessionTtlSeconds: e.SESSION_TTL_SECONDS,
    trustProxy: e.TRUST_PROXY !== false && e.TRUST_PROXY !== 0,
    proxyTrust: e.TRUST_PROXY,
    bodyLimits: { windowSeconds: e.BODY_TIMEOUT_SECONDS, minBytesPerSecond: e.BODY_MIN_BYTES_PER_SECOND, unauthenticatedSeconds: e.UNAUTHENTICATED_BODY_TIMEOUT_SECONDS },
    // Behind a proxy every connection comes from the proxy: a cap there would cap everyone at once.
    maxConnectionsPerAddress: e.MAX_CONNECTIONS_PER_ADDRESS ?? (e.TRUST_PROXY === false || e.TRUST_PROXY === 0 ? 128 : 0),
    requestTimeoutSeconds: e.REQUEST_TIMEOUT_SECONDS,
    defaultTenant: e.DEFAULT_TENANT,
    // One core stays with the event loop, which serves the frames.
    imagingWorkers: e.IMAGING_WORKERS ?? Math.max(1, availableParallelism() - 1),
    // A first open waits for every frame to be generated and detected before its MLA (issue 23):
    // every core, as the queue puts what the page asks for first and the event loop mostly waits.
    frameWorkers: e.IMAGING_WORKERS ?? availableParallelism(),
    // Test servers open records of their own; frames made beside them would only slow the suites.
    pregenerateDemo: e.PREGENERATE_DEMO ?? e.NODE_ENV !== 'test',
    imagingTimelineFile: e.IMAGING_TIMELINE_FILE ?? null,
    storage:
      e.STORAGE === 's3'
        ? {
            kind: 's3',
            endpoint: e.S3_ENDPOINT!,
            bucket: e.S3_BUCKET!,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID!,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY!,
            publicEndpoint: e.S3_PUBLIC_ENDPOINT,
            signedUrlSeconds: e.S3_SIGNED_URL_SECONDS,
          }
        : { kind: 'local' },
    framesFromStore: e.STORAGE === 's3' && e.FRAMES_FROM_STORE,
    frameCdn: e.FRAME_CDN_URL && e.FRAME_CDN_KEY ? { baseUrl: e.FRAME_CDN_URL, key: e.FRAME_CDN_KEY, signedUrlSeconds: e.S3_SIGNED_URL_SECONDS } : null,
    webRoot: path.resolve('dist/web'),
    importMaxFileBytes: e.IMPORT_MAX_FILE_BYTES,
    importMemoryBudgetBytes: e.IMPORT_MEMORY_BUDGET_BYTES,
    jobs: { heartbeatSeconds: e.JOB_HEARTBEAT_SECONDS, superviseSeconds: e.JOB_SUPERVISE_SECONDS },
    dicomReceiver: e.DICOM_RECEIVER_PORT
      ? {
          port: e.DICOM_RECEIVER_PORT,
          host: e.DICOM_RECEIVER_HOST ?? e.HOST,
          aeTitles: e.DICOM_RECEIVER_AE_TITLES ?? new Map([['IVUSREVIEW', e.DEFAULT_TENANT]]),
          maxAssociationBytes: e.DICOM_RECEIVER_MAX_BYTES,
          maxAssociationsPerAddress: e.DICOM_RECEIVER_MAX_ASSOCIATIONS_PER_ADDRESS,
          idleTimeoutSeconds: e.DICOM_RECEIVER_IDLE_TIMEOUT_SECONDS,
        }
      : null,
    pacsAllowLoopback: e.PACS_ALLOW_LOOPBACK,
  };
}

/** A CDN delivers what the store would: both settings or neither, and only when frames come from the store. */
function frameCdnProblem(e: z.infer<typeof EnvSchema>): string | null {
  if (!e.FRAME_CDN_URL && !e.FRAME_CDN_KEY) return null;
  if (!e.FRAME_CDN_URL) return 'FRAME_CDN_URL: required with FRAME_CDN_KEY (the CDN that checks the URLs signed with it)';
  if (!e.FRAME_CDN_KEY) return 'FRAME_CDN_KEY: required with FRAME_CDN_URL (the secret the CDN checks its URLs with)';
  if (e.STORAGE !== 's3') return 'FRAME_CDN_URL: only with STORAGE=s3 (the CDN fetches frame chunks from the bucket)';
  if (!e.FRAMES_FROM_STORE) return 'FRAME_CDN_URL: only with FRAMES_FROM_STORE on (with it off the replicas send the bytes themselves)';
  return null;
}

/** The public origin of a tenant, e.g. `http://demo.localhost:8080`. */
export function tenantOrigin(config: Pick<Config, 'publicUrlTemplate'>, tenantId: string): string {
  return config.publicUrlTemplate.replace('{tenant}', tenantId);
}
