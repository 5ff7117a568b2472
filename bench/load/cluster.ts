/**
 * What bench/load.ts adds to the shared cluster helpers (tests/support/cluster.ts, which start
 * PostgreSQL, the replicas and HAProxy and clean up after them): its balancer layout, a helper
 * process with a JSON ready line, and CPU probes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import readline from 'node:readline';
import { startHaproxy, stopChild, type Cleanup } from '../../tests/support/cluster.ts';

const CLOCK_TICKS_PER_S = 100;

/** A helper process that prints one JSON line with its port when ready (bench/frames-server.ts static mode). */
export function startJsonReady(args: string[], cleanup: Cleanup, label: string): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
  cleanup.add(`stop ${label}`, () => stopChild(child, 3000));
  return new Promise((resolve, reject) => {
    readline.createInterface({ input: child.stdout! }).on('line', (line) => {
      try {
        const message = JSON.parse(line) as { port?: number };
        if (typeof message.port === 'number') resolve({ child, port: message.port });
      } catch {
        // not the ready line
      }
    });
    child.once('exit', (code) => reject(new Error(`${label} exited with ${code}`)));
  });
}

export type Balancer = { child: ChildProcess; ports: { one: number; two: number } };

/**
 * HAProxy in HTTP mode, round robin per request, no stickiness, keep-alive on both sides:
 * port `two` spreads over both replicas, port `one` sends everything to the first, so the one- and
 * two-replica figures both include the same balancer hop. Null when HAProxy is not installed.
 */
export async function startBalancer(root: string, ports: { one: number; two: number }, replicaPorts: [number, number], cleanup: Cleanup): Promise<Balancer | null> {
  const config = [
    'global',
    '  maxconn 4096',
    'defaults',
    '  mode http',
    '  option http-keep-alive',
    '  timeout connect 5s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  timeout http-keep-alive 60s',
    `frontend two_replicas`,
    `  bind 127.0.0.1:${ports.two}`,
    '  default_backend replicas',
    `frontend one_replica`,
    `  bind 127.0.0.1:${ports.one}`,
    '  default_backend first_replica',
    'backend replicas',
    '  balance roundrobin',
    `  server a 127.0.0.1:${replicaPorts[0]}`,
    `  server b 127.0.0.1:${replicaPorts[1]}`,
    'backend first_replica',
    `  server a 127.0.0.1:${replicaPorts[0]}`,
    '',
  ].join('\n');
  const child = await startHaproxy(root, config, ports.two, cleanup);
  return child ? { child, ports } : null;
}

/** CPU seconds a process has used (all its threads), plus those of its reaped children. */
export function cpuSeconds(pid: number, withChildren = false): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime are fields 14-17; the fields after comm start at field 3.
    const own = Number(fields[11]) + Number(fields[12]);
    const children = withChildren ? Number(fields[13]) + Number(fields[14]) : 0;
    return (own + children) / CLOCK_TICKS_PER_S;
  } catch {
    return 0;
  }
}

/** CPU seconds of the PostgreSQL cluster: the postmaster, its live backends and those that ended. */
export function postgresCpuSeconds(postmaster: number | null): number {
  if (!postmaster) return 0;
  let total = cpuSeconds(postmaster, true);
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === postmaster) total += cpuSeconds(Number(entry));
    } catch {
      // ended meanwhile
    }
  }
  return total;
}

/** Busy CPU seconds of the whole machine (every process, ours and others'), from /proc/stat. */
export function machineBusySeconds(): number {
  const [cpu] = fs.readFileSync('/proc/stat', 'utf8').split('\n');
  const values = cpu!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal: idle and iowait are not busy.
  const busy = values.reduce((sum, v, i) => (i === 3 || i === 4 || i > 7 ? sum : sum + v), 0);
  return busy / CLOCK_TICKS_PER_S;
}
