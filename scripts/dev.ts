/**
 * `npm run dev`: the Vite dev server with hot reload on :5173, in front of the same API and
 * identity provider (started here on :8081 with their public address pointing at Vite).
 */
import { spawn } from 'node:child_process';
import { createServer } from 'vite';

const VITE_PORT = Number(process.env.PORT ?? 5173);
const API_PORT = Number(process.env.API_PORT ?? 8081);

const api = spawn(process.execPath, ['src/server/server.ts'], {
  stdio: 'inherit',
  env: { ...process.env, PORT: String(API_PORT), PUBLIC_URL_TEMPLATE: `http://{tenant}.localhost:${VITE_PORT}` },
});
api.on('exit', (code) => {
  console.error(`The API server stopped (exit ${code}).`);
  process.exit(code ?? 1);
});

const vite = await createServer({ server: { port: VITE_PORT } });
await vite.listen();
console.info(`\nDev server with hot reload: http://demo.localhost:${VITE_PORT}\n`);

const stop = async () => {
  api.kill('SIGINT');
  await vite.close();
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
