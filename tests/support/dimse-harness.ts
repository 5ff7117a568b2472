/**
 * A DIMSE receiver (src/server/pacs/dimse-receiver.ts) started on its own for tests, with dcmtk's
 * tools run beside it: what it handed on, what it audited and what it logged are kept.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addressAllowed } from '../../src/server/pacs/caller-policy.ts';
import { startDimseReceiver, type AssociationReport, type DimseReceiver, type DimseReceiverOptions, type ReceivedAssociation } from '../../src/server/pacs/dimse-receiver.ts';

export const AE = 'IVUSREVIEW';
export const TENANT = 'tenant-a';

/** Runs a tool without blocking the event loop (the receiver runs in this process). */
export function run(tool: string, args: string[]): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(tool, args, { encoding: 'utf8', timeout: 60_000 }, (error, stdout, stderr) => {
      const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
      resolve({ code, output: `${stdout}${stderr}` });
    });
  });
}

export type Harness = {
  receiver: DimseReceiver;
  tempRoot: string;
  calls: ReceivedAssociation[];
  /** What the receiver reported for the audit trail, one per association. */
  audits: AssociationReport[];
  /** Calling AE title -> the networks it may call from (empty: anywhere), as the tenant registered them. */
  registered: Map<string, string[]>;
  kept: string;
  logs: string[];
};

/** A receiver whose callback copies the files it is given (the receiver removes its directory afterwards); CONSOLE is registered. */
export async function startHarness(overrides: Partial<DimseReceiverOptions> = {}): Promise<Harness> {
  const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-dimse-'));
  const kept = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-dimse-kept-'));
  const calls: ReceivedAssociation[] = [];
  const audits: AssociationReport[] = [];
  const registered = new Map<string, string[]>([['CONSOLE', []]]);
  const logs: string[] = [];
  const record = (...a: unknown[]) => logs.push(a.map((x) => (typeof x === 'string' ? x : JSON.stringify(x))).join(' '));
  const receiver = await startDimseReceiver({
    host: '127.0.0.1',
    port: 0,
    aeTitles: new Map([[AE, TENANT]]),
    tempRoot,
    maxAssociationBytes: 256 * 1024 * 1024,
    maxAssociationsPerAddress: 8,
    idleTimeoutSeconds: 60,
    authorizeCaller: async ({ callingAeTitle, remoteAddress }) => {
      const networks = registered.get(callingAeTitle);
      if (!networks) return { accepted: false, reason: 'calling AE title not registered' };
      return addressAllowed(networks, remoteAddress) ? { accepted: true } : { accepted: false, reason: 'address not registered for this AE title' };
    },
    onAudit: async (report) => {
      audits.push(report);
    },
    log: { info: record, warn: record },
    onAssociation: async (received) => {
      calls.push(received);
      for (const file of received.files) fs.copyFileSync(file.path, path.join(kept, file.fileName));
    },
    ...overrides,
  });
  return { receiver, tempRoot, calls, audits, registered, kept, logs };
}

export async function stopHarness(harness: Harness | undefined): Promise<void> {
  if (!harness) return;
  await harness.receiver.close();
  fs.rmSync(harness.tempRoot, { recursive: true, force: true });
  fs.rmSync(harness.kept, { recursive: true, force: true });
}

/** Waits until `check` holds (callbacks run after the sender has already been answered). */
export async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether the receiver's temporary root has been emptied (every association directory removed). */
export const emptied = (harness: Harness) => () => fs.readdirSync(harness.tempRoot).length === 0;
