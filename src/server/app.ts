import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance } from 'fastify';
import type { Config } from './config.ts';
import { tenantOrigin } from './config.ts';
import { imagingTimeline } from './imaging/imaging-timeline.ts';
import type { Database } from './db/client.ts';
import { AccountChecks } from './auth/account-check.ts';
import { authenticate } from './auth/authenticate.ts';
import { TenantDirectory } from './auth/tenant-directory.ts';
import { annotationRoutes } from './http/annotations.ts';
import { createImportService, importRoutes } from './http/imports.ts';
import { pacsRoutes } from './http/pacs.ts';
import { installDicomReceiver } from './pacs/receiver-imports.ts';
import { dicomCallerRoutes } from './http/dicom-callers.ts';
import { authInfoRoutes } from './http/auth-info.ts';
import { installErrorHandler } from './http/errors.ts';
import { installTextCheck } from './http/validation.ts';
import { patientRoutes } from './http/patients.ts';
import { recordRoutes, type FrameUrlSigner } from './http/records.ts';
import { userRoutes } from './http/users.ts';
import { auditRoutes } from './http/audit.ts';
import { contourRoutes } from './http/contours.ts';
import { RecordContourService } from './contours/record-contours.ts';
import { createHostPolicy } from './http/host-policy.ts';
import { installRequestLimits, serverTimeouts } from './http/request-limits.ts';
import { capConnectionsPerAddress } from './http/connection-limits.ts';
import { fastifyTrustProxy } from './http/proxy-trust.ts';
import { spaRoutes } from './http/spa.ts';
import { installSecurityHeaders } from './http/security-headers.ts';
import { deleteExpiredProviderRows } from './idp/adapter.ts';
import { databaseRateLimitStore } from './idp/rate-limit-store.ts';
import { deleteExpiredCounters } from './db/rate-limits.ts';
import { ProviderRegistry } from './idp/provider.ts';
import { startDemoPregeneration, type DemoPregeneration } from './imaging/demo-pregeneration.ts';
import { createFrameWorkerPool } from './imaging/frame-worker-pool.ts';
import { RecordImaging } from './imaging/record-imaging.ts';
import type { BlobStore } from './storage/blob-store.ts';
import { signCdnUrl } from './storage/cdn-url.ts';
import { identityProviderRoutes } from './idp/routes.ts';
import { startJobQueue } from './jobs/job-queue.ts';
import { registerJobWorkers } from './job-workers.ts';

/**
 * Browsers fetch frame chunks from the store itself when it can sign URLs and FRAMES_FROM_STORE is on
 * (S3 only); with FRAME_CDN_URL, from the CDN in front of it, by URLs the CDN checks.
 */
function frameUrlSigner(config: Config, store: BlobStore): FrameUrlSigner | null {
  if (!config.framesFromStore || !store.signedGetUrl) return null;
  const cdn = config.frameCdn;
  if (cdn) return async (key) => signCdnUrl(cdn.baseUrl, cdn.key, key, cdn.signedUrlSeconds);
  return (key) => store.signedGetUrl!(key);
}

/** The origin browsers fetch frame chunks from when the store (or its CDN) delivers them: allowed by the pages' CSP. */
function frameStoreOrigins(config: Config): string[] {
  if (!config.framesFromStore || config.storage.kind !== 's3') return [];
  if (config.frameCdn) return [new URL(config.frameCdn.baseUrl).origin];
  return [new URL(config.storage.publicEndpoint ?? config.storage.endpoint).origin];
}

export type AppOptions = { config: Config; database: Database; store: BlobStore };

/** Builds the whole server (API, identity provider, SPA) without listening: tests use `inject`. */
export async function buildApp({ config, database, store }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: {
        // Never log query strings: the sign-in callback carries its code in one.
        req: (req) => ({ method: req.method, url: req.url.split('?')[0], host: req.host, remoteAddress: req.ip }),
      },
    },
    trustProxy: fastifyTrustProxy(config.proxyTrust),
    ...serverTimeouts(config.requestTimeoutSeconds),
    forceCloseConnections: true,
    bodyLimit: 1024 * 1024,
  });
  const { db } = database;
  const tenants = new TenantDirectory(db, config);
  // What each replica knows of accounts and sign-ins, briefly (auth/account-check.ts).
  const accounts = new AccountChecks(db);
  const providers = new ProviderRegistry(db, config, app.log, accounts);
  // Generation, detection and import decoding are durable jobs in the database (jobs/job-queue.ts).
  const jobs = await startJobQueue(database, config.jobs, app.log);
  const pool = config.frameWorkers > 0 ? createFrameWorkerPool(config.frameWorkers) : null;
  const imaging = new RecordImaging(store, pool, app.log, { jobs, timeline: imagingTimeline(config.imagingTimelineFile) });
  // `frameWorkers` detection threads (0: on the main thread, as in tests).
  const contours = new RecordContourService({ store, imaging, workers: config.frameWorkers, log: app.log, jobs });
  const importing = createImportService({ db, databaseKind: database.kind, store, config, jobs }, app.log);
  app.addHook('onReady', async () => {
    await importing.start();
    await registerJobWorkers(jobs, { db, imaging, contours, imports: importing.service, log: app.log, jobs });
  });
  if (config.dicomReceiver) installDicomReceiver(app, { config, receiver: config.dicomReceiver, db, imports: importing.service });

  installErrorHandler(app);
  // The same headers on every answer, the provider's own pages and the static files included.
  installSecurityHeaders(app, frameStoreOrigins(config));
  // NUL and broken Unicode are refused with 400 on every route, before PostgreSQL would refuse them with a 500.
  installTextCheck(app);
  // Every body, whoever reads it (Fastify, the multipart reader, oidc-provider), keeps a minimum pace.
  installRequestLimits(app, config.bodyLimits);
  capConnectionsPerAddress(app.server, config.maxConnectionsPerAddress);

  // Only the tenants' public addresses are served (http/host-policy.ts); the health check answers any
  // host (load balancers probe by address), and a bare loopback address is sent to the default tenant.
  const hostPolicy = createHostPolicy(config.publicUrlTemplate);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/healthz') return;
    const verdict = hostPolicy(request.host);
    if (verdict.kind === 'tenant') return;
    if (verdict.kind === 'loopback' && !request.url.startsWith('/api/')) {
      return reply.redirect(`${tenantOrigin(config, config.defaultTenant)}${request.url}`);
    }
    return reply
      .code(421)
      .header('cache-control', 'no-store')
      .send({ error: 'misdirected_request', message: `This server does not answer for the host ${JSON.stringify(request.host ?? '')}.` });
  });

  app.get('/healthz', async () => ({ status: 'ok', database: database.kind }));
  await app.register(authInfoRoutes, { tenants });
  await app.register(async (api) => {
    // Before any body is read: a request that is not signed in costs no parsing.
    api.addHook('onRequest', authenticate(accounts, tenants));
    await api.register(patientRoutes, { db });
    await api.register(recordRoutes, { db, imaging, signFrameUrl: frameUrlSigner(config, store) });
    await api.register(userRoutes, { db, accounts });
    await api.register(auditRoutes, { db });
    await api.register(contourRoutes, { db, contours });
    await api.register(annotationRoutes, { db });
    await api.register(importRoutes, { service: importing.service, config });
    await api.register(pacsRoutes, { db, imports: importing.service, contours, imaging, addressPolicy: { allowLoopback: config.pacsAllowLoopback } });
    await api.register(dicomCallerRoutes, { db, config });
  });
  // Limiters only where a route asks for one (idp/sign-in-throttle.ts), not on every request.
  // Counted in the database, so every replica sees the same failures.
  await app.register(rateLimit, { global: false, store: databaseRateLimitStore(db) });
  await app.register(identityProviderRoutes, { db, tenants, providers });
  await spaRoutes(app, { webRoot: config.webRoot });

  const sweeper = setInterval(() => {
    deleteExpiredProviderRows(db).catch((err: unknown) => app.log.warn({ err }, 'expired sign-in rows not removed'));
    deleteExpiredCounters(db).catch((err: unknown) => app.log.warn({ err }, 'expired sign-in counters not removed'));
  }, 10 * 60_000);
  sweeper.unref();
  // Only once the server listens, so it never delays start-up (and never runs under `inject` tests).
  let pregeneration: DemoPregeneration | null = null;
  if (config.pregenerateDemo) {
    app.addHook('onListen', async () => {
      pregeneration = startDemoPregeneration(db, { generateAll: (record, priority) => imaging.schedule(record, priority) }, app.log);
    });
  }
  app.addHook('onClose', async () => {
    clearInterval(sweeper);
    // Stopped first, so that the chunks dropped below end it quietly rather than as failures.
    const stopping = pregeneration?.stop();
    // Running jobs stop at their next step and are retried later, here or on another replica; the
    // queue waits for them to end before the workers and the database go.
    importing.service.close();
    imaging.close();
    const detecting = contours.close();
    await jobs.stop();
    await detecting;
    await pool?.close();
    await importing.stop();
    await stopping;
  });

  return app;
}
