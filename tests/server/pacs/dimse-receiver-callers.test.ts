/**
 * Who may push to the receiver (issue 24): only calling AE titles the tenant registered, from the
 * addresses it registered, are accepted, and the rest are rejected at association (dcmtk says
 * "Calling AE Title Not Recognized") before any data. One address cannot take every slot, a silent
 * connection is aborted, and every association is reported for the audit trail.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import dimse from 'dcmjs-dimse';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { makeDicom } from '../../support/dicom-fixtures.ts';
import { AE, emptied, run, startHarness, stopHarness, TENANT, until, type Harness } from '../../support/dimse-harness.ts';
import { hasTool } from '../../support/real-encoders.ts';

const hasDcmtk = ['storescu', 'echoscu'].every(hasTool);
if (!hasDcmtk) console.warn("\nNOTICE: Debian's dcmtk (storescu, echoscu) is not installed: the DIMSE caller tests are skipped.\n");

/** A TCP connection from `localAddress` (a loopback alias) that sends nothing; resolves once connected. */
function silentConnection(port: number, localAddress: string): Promise<{ socket: net.Socket; closed: () => boolean }> {
  return new Promise((resolve, reject) => {
    let isClosed = false;
    const socket = net.connect({ host: '127.0.0.1', port, localAddress });
    socket.on('close', () => (isClosed = true));
    // A connection the receiver resets may report it; that is what is being counted.
    socket.on('error', () => undefined);
    socket.once('connect', () => resolve({ socket, closed: () => isClosed }));
    socket.once('error', reject);
  });
}

describe.skipIf(!hasDcmtk)('DIMSE receiver: registered callers, limits and audit', () => {
  let work: string;
  let instance: string;
  let harness: Harness | undefined;
  const sockets: net.Socket[] = [];

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-dimse-callers-'));
    instance = path.join(work, 'instance.dcm');
    fs.writeFileSync(instance, makeDicom({ patientId: 'CALLER-1', frames: 4 }).bytes);
  });
  afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await stopHarness(harness);
    harness = undefined;
  });

  const storescu = (callingAe: string) => run('storescu', ['-aet', callingAe, '-aec', AE, '127.0.0.1', String(harness!.receiver.port), instance]);

  it('rejects a calling AE title the tenant did not register at association: nothing is stored, the rejection is audited', async () => {
    harness = await startHarness();
    const result = await storescu('STRANGER');
    expect(result.code).not.toBe(0);
    expect(result.output).toMatch(/Calling AE Title Not Recognized/i);
    await until(() => harness!.audits.length === 1);
    expect(harness.calls).toEqual([]);
    expect(fs.readdirSync(harness.tempRoot)).toEqual([]);
    expect(harness.audits[0]).toEqual({
      tenantId: TENANT,
      callingAeTitle: 'STRANGER',
      calledAeTitle: AE,
      remoteAddress: '127.0.0.1',
      outcome: 'rejected',
      reason: 'calling AE title not registered',
      instances: 0,
    });
  });

  it('rejects a registered AE title calling from an address not registered for it, and accepts it from one that is', async () => {
    harness = await startHarness();
    harness.registered.set('CONSOLE', ['127.0.0.2']);
    const refused = await storescu('CONSOLE');
    expect(refused.output).toMatch(/Calling AE Title Not Recognized/i);
    await until(() => harness!.audits.length === 1);
    expect(harness.audits[0]).toMatchObject({ outcome: 'rejected', reason: 'address not registered for this AE title' });
    expect(harness.calls).toEqual([]);

    harness.registered.set('CONSOLE', ['127.0.0.0/8']);
    const accepted = await storescu('CONSOLE');
    expect(accepted.code, accepted.output).toBe(0);
    await until(() => harness!.audits.length === 2);
    expect(harness.calls).toHaveLength(1);
    expect(harness.audits[1]).toMatchObject({ callingAeTitle: 'CONSOLE', outcome: 'released', reason: '', instances: 1 });
    await until(emptied(harness));
  });

  it('lets a console connect while one address holds 64 idle connections', async () => {
    harness = await startHarness({ maxAssociationsPerAddress: 8 });
    const port = harness.receiver.port;
    // What took every slot before: 64 connections from one address that never associate.
    const idle = await Promise.all(Array.from({ length: 64 }, () => silentConnection(port, '127.0.0.2')));
    sockets.push(...idle.map((c) => c.socket));
    // All but eight are closed as they arrive.
    await until(() => idle.filter((c) => c.closed()).length === 56);

    const echo = await run('echoscu', ['-aet', 'CONSOLE', '-aec', AE, '127.0.0.1', String(port)]);
    expect(echo.code, echo.output).toBe(0);
    expect(harness.logs.join('\n')).toMatch(/holds the most connections allowed/);
    expect(idle.filter((c) => c.closed())).toHaveLength(56);
  });

  it('closes a connection that stays silent past the idle timeout', async () => {
    harness = await startHarness({ idleTimeoutSeconds: 1 });
    const connection = await silentConnection(harness.receiver.port, '127.0.0.1');
    sockets.push(connection.socket);
    await until(connection.closed);
  });

  it('aborts an association that goes silent, and audits the abort', async () => {
    harness = await startHarness({ idleTimeoutSeconds: 1 });
    const client = new dimse.Client();
    client.addRequest(new dimse.requests.CEchoRequest());
    let accepted = false;
    let closed = false;
    client.on('associationAccepted', () => (accepted = true));
    client.on('closed', () => (closed = true));
    client.on('networkError', () => undefined);
    // After its C-ECHO the client waits 20 s before releasing: silent far past the receiver's 1 s.
    client.send('127.0.0.1', harness.receiver.port, 'CONSOLE', AE, { associationLingerTimeout: 20_000 });
    await until(() => closed);
    expect(accepted).toBe(true);
    await until(() => harness!.audits.length === 1);
    expect(harness.audits[0]).toMatchObject({ callingAeTitle: 'CONSOLE', outcome: 'aborted', reason: 'silent for 1 s', instances: 0 });
  });
});
