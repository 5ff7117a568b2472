// First: fixes the balancer port (and E2E_PORT, which playwright.config.ts reads) before that file is evaluated.
import { BALANCER_PORT } from './e2e-replicas/balancer-port.ts';
import { defineConfig } from '@playwright/test';
import base from './playwright.config.ts';

/**
 * The end-to-end run through a load balancer: two replicas on PostgreSQL and s3rver behind
 * HAProxy, one of them killed and restarted while a browser works (e2e-replicas/). Global setup
 * starts the whole cluster on free ports; there is no webServer. The browser is the main run's.
 */
export default defineConfig({
  ...base,
  testDir: 'e2e-replicas',
  // Apart from the main run's results, which it would otherwise wipe.
  outputDir: 'test-results/e2e-replicas',
  globalSetup: './e2e-replicas/cluster-setup.ts',
  webServer: undefined,
  // One user story that waits for imports and two restarts on a busy 2-core machine: 2 to 2.5 min on
  // ours, 3.3 min on a slower CI machine (its import alone ended at 148 s), where 180 s cut the last
  // step short. Its steps keep their own waits; this bounds the whole story.
  timeout: 360_000,
  use: { ...base.use, baseURL: `http://demo.localhost:${BALANCER_PORT}` },
});
