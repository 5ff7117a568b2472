/** Build stamp injected by Vite's `define` (vite.config.ts, vitest.config.ts). */
declare const __BUILD_VERSION__: string;
