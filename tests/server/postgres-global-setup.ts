import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/server/db/client.ts';
import { DEMO_TENANTS } from '../../src/server/seed/demo-accounts.ts';
import { seedTenant } from '../../src/server/seed/seed.ts';
import { freePort } from '../support/free-port.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresAdminUrl: string | null;
    /** A database migrated and seeded with the demo tenants once a run, which test servers copy. */
    postgresTemplate: string | null;
  }
}

const SEARCH_DIRS = ['/usr/local/bin', '/usr/lib/postgresql/17/bin', '/usr/lib/postgresql/16/bin', '/usr/lib/postgresql/15/bin'];

function findBinary(name: string): string | null {
  for (const dir of SEARCH_DIRS) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  const which = spawnSync('which', [name], { encoding: 'utf8' });
  return which.status === 0 ? which.stdout.trim() : null;
}


/**
 * Starts a throw-away PostgreSQL cluster from the machine's binaries for the
 * `server-postgres` project. PostgreSQL refuses to run as root, so as root it runs as the
 * `postgres` user.
 */
export default async function setup(project: TestProject) {
  const initdb = findBinary('initdb');
  const pgCtl = findBinary('pg_ctl');
  if (!initdb || !pgCtl) {
    console.warn('\n[server-postgres] NOTICE: no PostgreSQL binaries (initdb, pg_ctl) found: the real-PostgreSQL run is skipped.\n');
    project.provide('postgresAdminUrl', null);
    project.provide('postgresTemplate', null);
    return;
  }
  const asRoot = process.getuid?.() === 0;
  const run = (binary: string, args: string[]) =>
    asRoot ? execFileSync('runuser', ['-u', 'postgres', '--', binary, ...args], { stdio: 'pipe' }) : execFileSync(binary, args, { stdio: 'pipe' });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-pg-'));
  if (asRoot) execFileSync('chown', ['postgres:', dir]);
  fs.chmodSync(dir, 0o700);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  run(initdb, ['-D', dataDir, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions']);
  run(pgCtl, ['-D', dataDir, '-l', path.join(dir, 'server.log'), '-w', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off`, 'start']);
  const stop = () => {
    try {
      run(pgCtl, ['-D', dataDir, '-m', 'immediate', 'stop']);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  const adminUrl = `postgres://postgres@127.0.0.1:${port}/postgres`;
  try {
    project.provide('postgresTemplate', await seededTemplate(adminUrl));
  } catch (error) {
    stop();
    throw error;
  }
  project.provide('postgresAdminUrl', adminUrl);
  return stop;
}

/** The run's template: migrated and seeded by this run's code, closed so that CREATE DATABASE may copy it. */
async function seededTemplate(adminUrl: string): Promise<string> {
  const name = 'seeded_template';
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const database = await openDatabase({ kind: 'postgres', url: adminUrl.replace(/\/postgres$/, `/${name}`) });
  try {
    for (const tenant of DEMO_TENANTS) await seedTenant(database.db, tenant);
  } finally {
    await database.close();
  }
  return name;
}
