import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { pixiStartupProbes } from './scripts/vite-pixi-startup.ts';

/** The API server the dev server forwards to (scripts/dev.ts starts it on this port). */
const apiPort = Number(process.env.API_PORT ?? 8081);

export default defineConfig({
  plugins: [react(), pixiStartupProbes()],
  build: {
    outDir: 'dist/web',
    emptyOutDir: true,
    // Not built: source maps would hand the public the app's whole source (issue 24); the server
    // refuses to serve a .map file should one be there.
    sourcemap: false,
    chunkSizeWarningLimit: 2000,
    // Which chunks each entry and dynamic import needs, for bench/bundle.ts (first-load budget, issue 27).
    // Written to dist/web/.vite/, a dot folder the static server does not serve (dotfiles ignored).
    manifest: true,
    rollupOptions: {
      // The service worker is its own entry, served from the root so that its scope is the whole app.
      input: { main: 'index.html', sw: 'src/web/sw/service-worker.ts' },
      output: { entryFileNames: (chunk) => (chunk.name === 'sw' ? 'sw.js' : 'assets/[name]-[hash].js') },
    },
  },
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
