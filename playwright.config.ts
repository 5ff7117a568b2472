import { defineConfig } from '@playwright/test';

/** End-to-end tests run against the built product on its own port and a fresh data directory. */
export const E2E_PORT = 8181;
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
    command: 'rm -rf .tmp/e2e-data && node src/server/server.ts',
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(E2E_PORT),
      DATA_DIR: '.tmp/e2e-data',
      SEED_LARGE_TENANT: 'true',
      LOG_LEVEL: 'warn',
      NODE_ENV: 'test',
    },
  },
});
