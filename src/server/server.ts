import { buildApp } from './app.ts';
import { openBlobStore } from './storage/open-store.ts';
import { ConfigError, loadConfig, tenantOrigin } from './config.ts';
import { openDatabase } from './db/client.ts';
import { DataDirLockedError } from './db/lock.ts';
import { tenants } from './db/schema.ts';
import { KeyFileError } from './crypto/key-encryption-key.ts';
import { ServerSecretsError, loadTenantSecrets } from './db/secrets.ts';
import { unlockServerSecrets } from './db/secrets-startup.ts';
import { DEMO_TENANTS, LARGE_TENANT, demoAccounts } from './seed/demo-accounts.ts';
import { seedTenant } from './seed/seed.ts';

/** How long a graceful shutdown may take before the process exits anyway. */
const SHUTDOWN_TIMEOUT_MS = 10_000;

/** Starts the one server process: API, identity provider and SPA. */
async function main(): Promise<void> {
  const started = performance.now();
  const config = loadConfig();
  const database = await openDatabase(
    config.databaseUrl ? { kind: 'postgres', url: config.databaseUrl } : { kind: 'pglite', dataDir: config.dataDir },
  );
  // Before anything reads a tenant's keys: a key-encryption key that does not open them stops here.
  const secrets = await unlockServerSecrets(config, database.db);
  const store = openBlobStore(config);
  const app = await buildApp({ config, database, store });
  if (secrets.source === 'file') {
    if (secrets.created) app.log.warn({ file: secrets.file }, 'generated a key-encryption key for the stored signing and cookie keys; back the file up apart from the database');
    if (secrets.exposed) app.log.warn({ file: secrets.file }, 'the key-encryption key file is readable by other users; chmod 600 it');
  }
  if (secrets.encrypted) app.log.info({ rows: secrets.encrypted }, 'encrypted the stored signing and cookie keys that were in plain text');

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Bounded: a stuck connection or job must not keep a stopped server alive (the orchestrator then kills it anyway).
    setTimeout(() => {
      app.log.error({ seconds: SHUTDOWN_TIMEOUT_MS / 1000 }, 'shutdown took too long; exiting');
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await app.close();
    } finally {
      await database.close();
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  if (config.seedDemo) {
    for (const tenant of DEMO_TENANTS) {
      if (await seedTenant(database.db, tenant)) app.log.info({ tenant: tenant.id }, 'seeded demo tenant');
    }
  }
  if (config.seedLargeTenant && (await seedTenant(database.db, LARGE_TENANT))) {
    app.log.info({ tenant: LARGE_TENANT.id }, 'seeded large tenant');
  }

  // Generate each tenant's provider keys now rather than on its first sign-in.
  for (const { id } of await database.db.select({ id: tenants.id }).from(tenants)) await loadTenantSecrets(database.db, id);

  await app.listen({ port: config.port, host: config.host });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  const lines = [
    '',
    `IVUS Review is running (ready in ${seconds} s, database: ${database.kind}${database.kind === 'pglite' ? ` in ${config.dataDir}` : ''}).`,
    '',
    `  Open ${tenantOrigin(config, 'demo')}`,
  ];
  if (config.seedDemo) {
    lines.push('', '  Demo sign-ins (demo data only):');
    for (const tenant of DEMO_TENANTS) {
      lines.push(`    ${tenantOrigin(config, tenant.id)}`);
      for (const account of demoAccounts(tenant.id)) {
        const role = account.groups.length ? 'administrator' : 'clinician';
        lines.push(`      ${role.padEnd(13)} ${account.email.padEnd(24)} ${account.password}`);
      }
    }
  }
  if (config.dicomReceiver) {
    const { host, port, aeTitles } = config.dicomReceiver;
    const titles = [...aeTitles].map(([title, tenant]) => `${title} (${tenant})`).join(', ');
    lines.push('', `  DICOM receiver (C-STORE) on ${host}:${port}, AE titles ${titles}`);
  }
  lines.push('', '  Press Ctrl-C to stop.', '');
  process.stdout.write(lines.join('\n'));
}

main().catch((error: unknown) => {
  if ([ConfigError, DataDirLockedError, KeyFileError, ServerSecretsError].some((kind) => error instanceof kind)) {
    process.stderr.write(`${(error as Error).message}\n`);
  } else {
    process.stderr.write(`The server could not start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  }
  process.exit(1);
});
