import { defineConfig } from '@playwright/test';

/** End-to-end tests run against the built product on its own port and a fresh data directory. */
// E2E_PORT lets two runs share the machine (each with its own port and data directory).
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
const DATA_DIR = E2E_PORT === 8181 ? '.tmp/e2e-data' : `.tmp/e2e-data-${E2E_PORT}`;
export const originOf = (tenantId: string) => `http://${tenantId}.localhost:${E2E_PORT}`;

export default defineConfig({
  testDir: 'e2e',
  fullyParallel: false,
  workers: 1,
  forbidOnly: !!process.env.CI,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: originOf('demo'),
    viewport: { width: 1600, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      // Debian's Chromium: no browser is downloaded on this machine.
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--use-angle=swiftshader',
        '--enable-unsafe-swiftshader',
      ],
    },
  },
  webServer: {
    command: `rm -rf ${DATA_DIR} && node src/server/server.ts`,
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR,
      SEED_LARGE_TENANT: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
      // e2e/pacs.spec.ts's Orthanc listens on 127.0.0.1, which PACS connections may not reach by default.
      PACS_ALLOW_LOOPBACK: 'true',
    },
  },
});
