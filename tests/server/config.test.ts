import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, tenantOrigin } from '../../src/server/config.ts';
import { acquireDataDirLock, DataDirLockedError } from '../../src/server/db/lock.ts';

describe('configuration', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(tenantOrigin(config, 'demo')).toBe('http://demo.localhost:8080');
    expect(config.databaseUrl).toBeUndefined();
  });

  it('names the variable that holds a bad value', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must start with postgres/);
    expect(() => loadConfig({ PUBLIC_URL_TEMPLATE: 'https://example.org' })).toThrow(/PUBLIC_URL_TEMPLATE: must contain \{tenant\}/);
    expect(() => loadConfig({ PUBLIC_URL_TEMPLATE: 'https://ivus-{tenant}.example.org' })).toThrow(/PUBLIC_URL_TEMPLATE: must start with http\(s\):\/\/\{tenant\}\./);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
    expect(() => loadConfig({ STORAGE: 'ftp' })).toThrow(/STORAGE: must be local or s3/);
  });

  it('keeps PACS connections off the server\'s loopback unless PACS_ALLOW_LOOPBACK says otherwise', () => {
    expect(loadConfig({}).pacsAllowLoopback).toBe(false);
    expect(loadConfig({ PACS_ALLOW_LOOPBACK: 'true' }).pacsAllowLoopback).toBe(true);
    expect(() => loadConfig({ PACS_ALLOW_LOOPBACK: 'sometimes' })).toThrow(/PACS_ALLOW_LOOPBACK: must be true or false/);
  });

  it("limits the DICOM receiver's connections per address and its idle time, within bounds", () => {
    const receiver = (env: Record<string, string>) => loadConfig({ DICOM_RECEIVER_PORT: '11112', ...env }).dicomReceiver!;
    expect(receiver({})).toMatchObject({ maxAssociationsPerAddress: 8, idleTimeoutSeconds: 60 });
    expect(receiver({ DICOM_RECEIVER_MAX_ASSOCIATIONS_PER_ADDRESS: '2', DICOM_RECEIVER_IDLE_TIMEOUT_SECONDS: '15' })).toMatchObject({ maxAssociationsPerAddress: 2, idleTimeoutSeconds: 15 });
    expect(() => receiver({ DICOM_RECEIVER_MAX_ASSOCIATIONS_PER_ADDRESS: '0' })).toThrow(/DICOM_RECEIVER_MAX_ASSOCIATIONS_PER_ADDRESS/);
    // Near the receiver's 64 connections in all, one address could take every slot again.
    expect(() => receiver({ DICOM_RECEIVER_MAX_ASSOCIATIONS_PER_ADDRESS: '33' })).toThrow(/DICOM_RECEIVER_MAX_ASSOCIATIONS_PER_ADDRESS/);
    expect(() => receiver({ DICOM_RECEIVER_IDLE_TIMEOUT_SECONDS: '0' })).toThrow(/DICOM_RECEIVER_IDLE_TIMEOUT_SECONDS/);
    expect(() => receiver({ DICOM_RECEIVER_IDLE_TIMEOUT_SECONDS: 'soon' })).toThrow(/DICOM_RECEIVER_IDLE_TIMEOUT_SECONDS/);
  });

  it('asks for every S3 setting when frames go to object storage', () => {
    expect(() => loadConfig({ STORAGE: 's3', S3_BUCKET: 'frames' })).toThrow(/S3_ENDPOINT: required when STORAGE=s3[\s\S]*S3_SECRET_ACCESS_KEY/);
    const config = loadConfig({ STORAGE: 's3', S3_ENDPOINT: 'http://minio:9000', S3_BUCKET: 'frames', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' });
    expect(config.storage).toEqual({ kind: 's3', endpoint: 'http://minio:9000', bucket: 'frames', region: 'us-east-1', accessKeyId: 'k', secretAccessKey: 's', signedUrlSeconds: 300 });
    expect(config.framesFromStore).toBe(true);
  });

  it('reads how frames reach browsers from S3: signed URL lifetime, public endpoint, the switch (issue 27)', () => {
    const s3 = { STORAGE: 's3', S3_ENDPOINT: 'http://minio:9000', S3_BUCKET: 'frames', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    expect(loadConfig({ ...s3, S3_SIGNED_URL_SECONDS: '60', S3_PUBLIC_ENDPOINT: 'https://cdn.example.org' }).storage).toMatchObject({ signedUrlSeconds: 60, publicEndpoint: 'https://cdn.example.org' });
    for (const bad of ['5', '604801', 'soon']) expect(() => loadConfig({ ...s3, S3_SIGNED_URL_SECONDS: bad }), bad).toThrow(/S3_SIGNED_URL_SECONDS/);
    expect(() => loadConfig({ ...s3, S3_PUBLIC_ENDPOINT: 'cdn.example.org' })).toThrow(/S3_PUBLIC_ENDPOINT/);
    expect(loadConfig({ ...s3, FRAMES_FROM_STORE: 'false' }).framesFromStore).toBe(false);
    // A local directory cannot sign URLs: the app sends the bytes whatever the switch says.
    expect(loadConfig({ FRAMES_FROM_STORE: 'true' }).framesFromStore).toBe(false);
  });

  it('takes a frames CDN only with frames from the store, both settings, and a key of 32 bytes it never repeats', () => {
    const s3 = { STORAGE: 's3', S3_ENDPOINT: 'http://minio:9000', S3_BUCKET: 'frames', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's' };
    const key = 'k3y'.repeat(11);
    const cdn = { FRAME_CDN_URL: 'https://frames.example.org', FRAME_CDN_KEY: key };
    expect(loadConfig({ ...s3, ...cdn, S3_SIGNED_URL_SECONDS: '60' }).frameCdn).toEqual({ baseUrl: 'https://frames.example.org', key, signedUrlSeconds: 60 });
    expect(loadConfig(s3).frameCdn).toBeNull();
    const refusals: [Record<string, string>, RegExp][] = [
      [{ ...s3, FRAME_CDN_URL: cdn.FRAME_CDN_URL }, /FRAME_CDN_KEY: required with FRAME_CDN_URL/],
      [{ ...s3, FRAME_CDN_KEY: key }, /FRAME_CDN_URL: required with FRAME_CDN_KEY/],
      [cdn, /FRAME_CDN_URL: only with STORAGE=s3/],
      [{ ...s3, ...cdn, FRAMES_FROM_STORE: 'false' }, /FRAME_CDN_URL: only with FRAMES_FROM_STORE on/],
      [{ ...s3, ...cdn, FRAME_CDN_KEY: 'short-secret-of-31-bytes-xxxxxx' }, /FRAME_CDN_KEY: must be at least 32 bytes/],
      [{ ...s3, ...cdn, FRAME_CDN_URL: 'frames.example.org' }, /FRAME_CDN_URL: must be an absolute URL/],
      [{ ...s3, ...cdn, FRAME_CDN_URL: 'ftp://frames.example.org' }, /FRAME_CDN_URL: must be an http\(s\) URL/],
      [{ ...s3, ...cdn, FRAME_CDN_URL: 'https://frames.example.org/?x=1' }, /FRAME_CDN_URL: must have no query/],
    ];
    for (const [env, message] of refusals) {
      expect(() => loadConfig(env), String(message)).toThrow(message);
      try {
        loadConfig(env);
      } catch (error) {
        expect((error as Error).message).not.toContain('k3yk3y');
        expect((error as Error).message).not.toContain('short-secret');
      }
    }
  });
});

describe('proxy trust and connection limits (issue 24)', () => {
  it('reads TRUST_PROXY as off, a number of hops, or proxy addresses; true is one hop, never every hop', () => {
    expect(loadConfig({}).proxyTrust).toBe(false);
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).proxyTrust).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '2' }).proxyTrust).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7,::1,fd00::/8,loopback' }).proxyTrust).toEqual(['10.0.0.0/8', '192.0.2.7', '::1', 'fd00::/8', 'loopback']);
    for (const bad of ['maybe', '10.0.0.0/33', '10.0.0/8', 'proxy.example', '99']) {
      expect(() => loadConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY: /);
    }
  });

  it('caps connections per address by default, but not behind a proxy unless asked', () => {
    expect(loadConfig({}).maxConnectionsPerAddress).toBe(128);
    expect(loadConfig({ TRUST_PROXY: 'true' }).maxConnectionsPerAddress).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true', MAX_CONNECTIONS_PER_ADDRESS: '500' }).maxConnectionsPerAddress).toBe(500);
    expect(() => loadConfig({ MAX_CONNECTIONS_PER_ADDRESS: '-1' })).toThrow(/MAX_CONNECTIONS_PER_ADDRESS/);
    expect(loadConfig({}).bodyLimits).toEqual({ windowSeconds: 30, minBytesPerSecond: 1024, unauthenticatedSeconds: 10 });
    expect(() => loadConfig({ UNAUTHENTICATED_BODY_TIMEOUT_SECONDS: '0' })).toThrow(/UNAUTHENTICATED_BODY_TIMEOUT_SECONDS/);
  });
});

describe('data directory lock', () => {
  it('lets one process hold the directory and refuses a second holder until released', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-lock-'));
    const release = acquireDataDirLock(dir);
    // A live process (our parent) already holding the lock is refused with a clear message.
    fs.writeFileSync(path.join(dir, 'server.lock'), String(process.ppid));
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    expect(() => acquireDataDirLock(dir)).toThrow(/in use by another server process/);
    release();
    const again = acquireDataDirLock(dir);
    again();
    fs.rmSync(dir, { recursive: true });
  });

  it('takes over a lock left behind by a process that no longer runs', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-lock-'));
    fs.writeFileSync(path.join(dir, 'server.lock'), '2147483646');
    const release = acquireDataDirLock(dir);
    // The pid first, then (Linux) when the process started.
    expect(fs.readFileSync(path.join(dir, 'server.lock'), 'utf8').split('\n')[0]).toBe(String(process.pid));
    release();
    fs.rmSync(dir, { recursive: true });
  });

  // A server killed with SIGKILL leaves its lock; by its restart the pid may be someone else's (issue 16).
  it.skipIf(process.platform !== 'linux')('takes over a lock whose pid has been given to another process or a thread since', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-lock-'));
    const lockPath = path.join(dir, 'server.lock');
    const startOf = (pid: number) => {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]!;
    };
    // The live parent process, but not the one that wrote the lock (another start time): taken over.
    fs.writeFileSync(lockPath, `${process.ppid}\n${Number(startOf(process.ppid)) + 1}\n`);
    acquireDataDirLock(dir)();
    // The same process that wrote it: refused.
    fs.writeFileSync(lockPath, `${process.ppid}\n${startOf(process.ppid)}\n`);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirLockedError);
    // A thread id (of this very process): kill(tid, 0) succeeds, but a lock names processes: taken over.
    const tid = fs.readdirSync('/proc/self/task').map(Number).find((id) => id !== process.pid)!;
    fs.writeFileSync(lockPath, String(tid));
    acquireDataDirLock(dir)();
    fs.rmSync(dir, { recursive: true });
  });
});
