import fs from 'node:fs';
import net from 'node:net';

/**
 * The kernel's range for the local ports of outgoing connections. A port picked inside it may be
 * taken, between the pick and the server's start, by any client socket of the run (the database
 * pools, the job queue's connections, a browser), and the server then cannot listen.
 */
function ephemeralRange(): [number, number] {
  try {
    const [low, high] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (low && high) return [low, high];
  } catch {
    // not Linux: the IANA range
  }
  return [49152, 65535];
}

/** Ports below the ephemeral range that tests pick from (above the usual well-known and registered services). */
const PICK_FROM = 20_000;

function listensOn(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/**
 * A TCP port on loopback that nothing listens on at the moment (for servers the tests start), chosen
 * at random outside the ephemeral range so that no outgoing connection takes it before the server
 * starts.
 */
export async function freePort(): Promise<number> {
  const [low] = ephemeralRange();
  const high = Math.max(PICK_FROM + 1000, low);
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = PICK_FROM + Math.floor(Math.random() * (high - PICK_FROM));
    if (await listensOn(port)) return port;
  }
  throw new Error(`no free port found between ${PICK_FROM} and ${high}`);
}
