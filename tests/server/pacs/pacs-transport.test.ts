/**
 * The PACS transport vets the address each socket is opened to, after DNS, and follows no redirect
 * (issue 24): a listener on the server's loopback is never connected to through any form of its
 * address or a name that resolves to it, whatever a name resolved to when it was checked before.
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { isForbiddenAddressFailure, PacsTransport, RedirectRefusedError, type Resolver } from '../../../src/server/pacs/pacs-transport.ts';

/** An HTTP listener on 127.0.0.1 that counts the connections opened to it. */
async function countingListener(answer: (request: http.IncomingMessage, response: http.ServerResponse) => void) {
  const server = http.createServer(answer);
  let connections = 0;
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, connections: () => connections, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const fakeResolver =
  (answers: Record<string, string[]>): Resolver =>
  (hostname, _options, callback) => {
    const found = answers[hostname];
    if (!found) return callback(Object.assign(new Error(`ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, found.map((address) => ({ address, family: net.isIP(address) })));
  };

describe('the PACS transport', () => {
  let listener: Awaited<ReturnType<typeof countingListener>>;
  const transports: PacsTransport[] = [];
  const transport = (allowLoopback: boolean, resolve?: Resolver) => {
    const made = new PacsTransport({ policy: { allowLoopback }, ...(resolve ? { resolve } : {}) });
    transports.push(made);
    return made;
  };
  beforeAll(async () => {
    listener = await countingListener((_request, response) => response.end('[]'));
  });
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close()));
  });
  afterAll(() => listener.close());

  it.each(['127.0.0.1', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::127.0.0.1]', '0.0.0.0', '[::ffff:0.0.0.0]', '[::]', '[::1]', 'localhost', '[64:ff9b::7f00:1]', '[2002:7f00:1::]'])(
    'never connects to the loopback listener through %s',
    async (host) => {
      const failure = await transport(false)
        .fetch(`http://${host}:${listener.port}/dicom-web/studies`)
        .then(() => null, (error: unknown) => error);
      expect(isForbiddenAddressFailure(failure), String(failure)).toBe(true);
      expect(listener.connections()).toBe(0);
    },
  );

  it('judges the addresses a name resolves to when the socket is opened (a name rebound to loopback is refused)', async () => {
    // What the name resolved to at save time does not matter: the connector resolves it again and judges that.
    const rebound = transport(false, fakeResolver({ 'pacs.hospital.test': ['127.0.0.1'] }));
    const failure = await rebound.fetch(`http://pacs.hospital.test:${listener.port}/dicom-web/studies`).catch((error: unknown) => error);
    expect(isForbiddenAddressFailure(failure)).toBe(true);
    // One forbidden address among good ones refuses the name.
    const mixed = transport(true, fakeResolver({ 'pacs.hospital.test': ['127.0.0.1', '169.254.169.254'] }));
    expect(isForbiddenAddressFailure(await mixed.fetch(`http://pacs.hospital.test:${listener.port}/`).catch((error: unknown) => error))).toBe(true);
    expect(listener.connections()).toBe(0);
    // Where loopback is allowed (the test suites), the resolved address is the one connected to.
    const allowed = transport(true, fakeResolver({ 'pacs.hospital.test': ['127.0.0.1'] }));
    const response = await allowed.fetch(`http://pacs.hospital.test:${listener.port}/dicom-web/studies`);
    expect(await response.text()).toBe('[]');
    expect(listener.connections()).toBe(1);
  });

  it('follows no redirect, not even to an allowed address', async () => {
    const target = await countingListener((_request, response) => response.end('[]'));
    const redirector = await countingListener((_request, response) => response.writeHead(302, { location: `http://127.0.0.1:${target.port}/dicom-web/studies` }).end());
    try {
      for (const status of [301, 302, 303, 307, 308]) {
        const bouncer = await countingListener((_request, response) => response.writeHead(status, { location: `http://[::ffff:169.254.169.254]/latest/meta-data/` }).end());
        await expect(transport(true).fetch(`http://127.0.0.1:${bouncer.port}/`)).rejects.toThrow(RedirectRefusedError);
        await bouncer.close();
      }
      await expect(transport(true).fetch(`http://127.0.0.1:${redirector.port}/dicom-web/studies`)).rejects.toThrow(RedirectRefusedError);
      expect(redirector.connections()).toBe(1);
      expect(target.connections()).toBe(0);
    } finally {
      await redirector.close();
      await target.close();
    }
  });
});
