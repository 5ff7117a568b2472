/**
 * `npm start`: builds the single-page app when its build is missing or older than its
 * sources, then starts the server.
 */
import fs from 'node:fs';
import path from 'node:path';

const SOURCES = ['src/web', 'src/domain', 'shaders', 'public', 'index.html', 'vite.config.ts', 'package.json'];
const BUILT = 'dist/web/index.html';

function newestModification(entry: string): number {
  if (!fs.existsSync(entry)) return 0;
  const stat = fs.statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of fs.readdirSync(entry)) newest = Math.max(newest, newestModification(path.join(entry, child)));
  return newest;
}

const builtAt = fs.existsSync(BUILT) ? fs.statSync(BUILT).mtimeMs : 0;
const sourcesAt = Math.max(...SOURCES.map(newestModification));
if (builtAt < sourcesAt) {
  process.stdout.write(builtAt ? 'The web app changed since its last build: rebuilding...\n' : 'Building the web app (first start)...\n');
  const { build } = await import('vite');
  await build({ logLevel: 'warn' });
}

await import('../src/server/server.ts');
