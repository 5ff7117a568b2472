import type { Plugin } from 'vite';

/**
 * Three of pixi's start-up probes replaced at build time. Each costs a round trip to the GPU
 * process, which under SwiftShader is busy starting up exactly when the review opens: together they
 * held the first B-mode frame back by about 300 ms (measured with `npm run bench:review`).
 * - canUseNewCanvasBlendModes: draws on two 2D canvases and reads their pixels back when pixi's
 *   module is evaluated, for its Canvas renderer, which this app never uses.
 * - isWebGLSupported: creates and throws away a WebGL context before the real one. Every browser
 *   this app supports has WebGL2; when the real context cannot be created, pixi's init rejects
 *   and the panel says so.
 * - getMaxFragmentPrecision: creates another throwaway WebGL context to ask for the fragment
 *   precision. WebGL2 (GLSL ES 3.00) requires highp in fragment shaders, and the review only
 *   renders with WebGL2.
 * The build fails if pixi's files move, rather than silently shipping the probes again.
 */
const REPLACEMENTS: Record<string, string> = {
  'rendering/renderers/canvas/utils/canUseNewCanvasBlendModes.mjs': 'export function canUseNewCanvasBlendModes() { return true; }',
  'utils/browser/isWebGLSupported.mjs': "export function isWebGLSupported() { return typeof WebGL2RenderingContext !== 'undefined'; }",
  'rendering/renderers/gl/shader/program/getMaxFragmentPrecision.mjs': "export function getMaxFragmentPrecision() { return 'highp'; }",
};

export function pixiStartupProbes(): Plugin {
  const replaced = new Set<string>();
  const suffixOf = (id: string) => Object.keys(REPLACEMENTS).find((suffix) => id.replaceAll('\\', '/').endsWith(`/pixi.js/lib/${suffix}`));
  return {
    name: 'pixi-startup-probes',
    apply: 'build',
    load(id) {
      const suffix = suffixOf(id);
      if (!suffix) return null;
      replaced.add(suffix);
      return REPLACEMENTS[suffix]!;
    },
    buildEnd(error) {
      const missing = Object.keys(REPLACEMENTS).filter((suffix) => !replaced.has(suffix));
      if (!error && missing.length) this.error(`pixi-startup-probes: pixi.js no longer has ${missing.join(', ')}; review the replacements.`);
    },
  };
}
