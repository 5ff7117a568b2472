/**
 * The balancer's port, chosen once per run. Playwright evaluates the config in the runner and
 * again in every worker, before global setup runs, and `baseURL` must be known then: so the port
 * is picked synchronously here (a child process asks the kernel for a free loopback port) and
 * passed on in the environment, which the workers inherit, so they all agree on it.
 *
 * Imported by playwright.replicas.config.ts BEFORE playwright.config.ts: the shared e2e helpers
 * (e2e/sign-in.ts, e2e/open-review.ts) address tenants through that file's `originOf`, which
 * reads E2E_PORT when it is first evaluated.
 */
import { execFileSync } from 'node:child_process';

const VARIABLE = 'REPLICAS_BALANCER_PORT';

if (!process.env[VARIABLE]) {
  // Port 0 gets an ephemeral port (never the main e2e run's 8181); it is free once the child exits.
  const script = "const s = require('node:net').createServer().listen(0, '127.0.0.1', () => { process.stdout.write(String(s.address().port)); s.close(); });";
  process.env[VARIABLE] = execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }).trim();
}

export const BALANCER_PORT = Number(process.env[VARIABLE]);
process.env.E2E_PORT = String(BALANCER_PORT);
