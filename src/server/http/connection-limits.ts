/**
 * A cap on the connections one client address may hold open at once (issue 24): without it, one
 * address could take every socket the process has with idle or trickling connections. Counted on the
 * socket's peer address, before any byte of a request is read; a connection over the cap is answered
 * 503 and closed at once. Behind a proxy every connection comes from the proxy, so the cap is off by
 * default there (config.ts) and the proxy limits its clients itself (deploy/haproxy.cfg).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

const OVER_CAP_ANSWER =
  'HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 50\r\nRetry-After: 5\r\n\r\nToo many connections from this address; try again.';

/** `maxPerAddress` 0: no cap. */
export function capConnectionsPerAddress(server: Server, maxPerAddress: number): void {
  if (maxPerAddress <= 0) return;
  const open = new Map<string, number>();
  // Before Node's HTTP handling sees the socket: a connection over the cap never reaches a route.
  server.prependListener('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const count = open.get(address) ?? 0;
    if (count >= maxPerAddress) {
      socket.on('error', () => {});
      // Written and closed at once (a short write to a new socket goes out synchronously): the
      // connection never lives long enough for a request on it to be parsed.
      socket.write(OVER_CAP_ANSWER);
      socket.destroy();
      return;
    }
    open.set(address, count + 1);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
  });
}
