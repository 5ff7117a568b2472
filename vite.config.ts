import fs from 'node:fs';
import path from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { pixiStartupProbes } from './scripts/vite-pixi-startup.ts';

/**
 * The build's chunk map (build.manifest) is for bench/bundle.ts and the first-load check, not for
 * the public: the static server serves dot folders of dist/web, so it moves beside dist/web.
 */
function manifestOutsideWebRoot(): Plugin {
  return {
    name: 'manifest-outside-web-root',
    apply: 'build',
    writeBundle(options) {
      const outDir = options.dir ?? 'dist/web';
      const written = path.join(outDir, '.vite', 'manifest.json');
      if (!fs.existsSync(written)) return;
      fs.renameSync(written, path.join(outDir, '..', 'bundle-manifest.json'));
      fs.rmSync(path.join(outDir, '.vite'), { recursive: true, force: true });
    },
  };
}

/** The API server the dev server forwards to (scripts/dev.ts starts it on this port). */
const apiPort = Number(process.env.API_PORT ?? 8081);

export default defineConfig({
  plugins: [react(), pixiStartupProbes(), manifestOutsideWebRoot()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Not built: source maps would hand the public the app's whole source (issue 24); the server
    // refuses to serve a .map file should one be there.
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // Which chunks each entry and dynamic import needs, for bench/bundle.ts and e2e/first-load.spec.ts
    // (issue 27); moved to dist/bundle-manifest.json, out of what the server serves.
    manifest: true,
    rollupOptions: {
      // The service worker is its own entry, served from the root so that its scope is the whole app.
      input: { main: 'index.html', sw: 'src/web/sw/service-worker.ts' },
      output: { entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js') },
    },
  },
  // The frame decode workers (src/web/codecs) load each codec as its own chunk when a pack needs it:
  // code-split workers must be ES modules.
  worker: { format: 'es' },
  define: {
    __BUILD_VERSION__: JSON.stringify(`${process.env.npm_package_version ?? '0.0.0'}+${new Date().toISOString()}`),
  },
  server: {
    port: Number(process.env.PORT ?? 5173),
    strictPort: true,
    // Tenants are host names (demo.localhost): forward with the browser's Host header intact.
    allowedHosts: ['.localhost'],
    proxy: {
      '/api': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
      '/idp': { target: `http://127.0.0.1:${apiPort}`, changeOrigin: false },
    },
  },
});
