/**
 * `node bench/one-canvas-prototype.ts [--rounds 4]`: would one WebGL canvas for the review's three panels
 * paint cheaper than three (issue 27)? A bench page laid out like the review at 1600x900 (angio
 * 443x374, B-mode 665x374, L-mode 296x374, side by side), synthetic 512x512 r8 frames, a cine
 * that draws a new B-mode frame in every animation frame, the angio every 7th, the L-mode never:
 * - 'three': three WebGL2 canvases, each drawing its own panel (the review's way);
 * - 'one-scissor': one canvas over the three panels, preserveDrawingBuffer, only the panels that
 *   changed redrawn under a scissor;
 * - 'one-all': one canvas, all three panels redrawn each frame;
 * - 'raw': one 700x700 canvas (bench/raw-webgl-page.ts's size);
 * - 'three-on-page': 'three' on a patterned page (tiles that are not one flat colour, as the review's text and plots);
 * - 'three-on-page-overlays': that with a transparent composited layer over each panel (a line in each).
 * Prints fps and browser CPU per painted frame, alternated round by round, medians.
 */
import { launchChromium } from './browser-bench.ts';
import { descendantCpuSeconds } from './chromium-cpu.ts';
import { percentile } from './review-measures.ts';

const at = process.argv.indexOf('--rounds');
const ROUNDS = at >= 0 ? Number(process.argv[at + 1]) : 4;
const MS = 3000;
// Panel rectangles as the review lays them out at 1600x900 (bench/compositor-trace.ts prints them).
const PANELS = [
  { x: 61, y: 89, w: 443, h: 374 },
  { x: 510, y: 89, w: 665, h: 374 },
  { x: 1181, y: 89, w: 296, h: 374 },
];

type Variant = 'three' | 'one-scissor' | 'one-all' | 'raw' | 'three-on-page' | 'three-on-page-overlays';
const VARIANTS: Variant[] = ['three', 'one-scissor', 'one-all', 'raw', 'three-on-page', 'three-on-page-overlays'];
// A page around the panels that is not one flat colour (text, plots, borders): its tiles are drawn, not filled.
const PAGE_AROUND = '<div style="position:absolute;inset:0;background:repeating-linear-gradient(45deg,#1a1a1a 0 3px,#222 3px 7px)"></div>';
// Panel-size transparent layers over the canvases, each with a line in it (the review's annotation overlay, cut line, L-mode borders).
const OVERLAYS = PANELS.map((p) => `<div style="position:absolute;left:${p.x}px;top:${p.y}px;width:${p.w}px;height:${p.h}px;will-change:transform"><div style="position:absolute;left:10px;top:10px;width:${p.w - 20}px;height:2px;background:#ff0"></div></div>`).join('');


function page(variant: Variant): string {
  const canvases =
    variant.startsWith('three')
      ? PANELS.map((p) => ({ x: p.x, y: p.y, w: p.w, h: p.h, panels: [PANELS.indexOf(p)] }))
      : variant === 'raw'
        ? [{ x: 0, y: 0, w: 700, h: 700, panels: [1] }]
        : [{ x: 61, y: 89, w: 1477 - 61, h: 374, panels: [0, 1, 2] }];
  return `<!doctype html><html><body style="margin:0;background:#000">
${variant.startsWith('three-on-page') ? PAGE_AROUND : ''}
${canvases.map((c, i) => `<canvas id="c${i}" width="${c.w}" height="${c.h}" style="position:absolute;left:${c.x}px;top:${c.y}px"></canvas>`).join('\n')}
${variant === 'three-on-page-overlays' ? OVERLAYS : ''}
<script type="module">
const variant = ${JSON.stringify(variant)};
const canvases = ${JSON.stringify(canvases)};
const panels = ${JSON.stringify(PANELS)};
const frames = Array.from({ length: 16 }, () => { const f = new Uint8Array(512 * 512); for (let i = 0; i < f.length; i++) f[i] = (Math.random() * 255) | 0; return f; });
const views = canvases.map((c, i) => {
  const gl = document.getElementById('c' + i).getContext('webgl2', { preserveDrawingBuffer: variant === 'one-scissor', antialias: false, alpha: false });
  const program = gl.createProgram();
  for (const [type, src] of [[gl.VERTEX_SHADER, '#version 300 es\\nin vec2 p; out vec2 uv; void main() { uv = p * 0.5 + 0.5; gl_Position = vec4(p, 0, 1); }'],
    [gl.FRAGMENT_SHADER, '#version 300 es\\nprecision highp float; uniform sampler2D t; in vec2 uv; out vec4 c; void main() { float v = texture(t, uv).r; c = vec4(v, v, v, 1); }']]) {
    const s = gl.createShader(type); gl.shaderSource(s, src); gl.compileShader(s); gl.attachShader(program, s);
  }
  gl.linkProgram(program); gl.useProgram(program);
  gl.bindBuffer(gl.ARRAY_BUFFER, gl.createBuffer());
  gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
  gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
  gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
  const texture = gl.createTexture(); gl.bindTexture(gl.TEXTURE_2D, texture);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR); gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R8, 512, 512);
  return { gl, canvas: c };
});
// Draws panel p's frame n into its view: a viewport (and a scissor when only some panels redraw) in the canvas.
function drawPanel(view, p, n) {
  const { gl, canvas } = view;
  const r = canvases.length === 1 && canvas.panels.length === 3 ? { x: panels[p].x - canvas.x, y: 0, w: panels[p].w, h: panels[p].h } : { x: 0, y: 0, w: canvas.w, h: canvas.h };
  gl.viewport(r.x, canvas.h - r.y - r.h, r.w, r.h);
  gl.enable(gl.SCISSOR_TEST); gl.scissor(r.x, canvas.h - r.y - r.h, r.w, r.h);
  gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, 512, 512, gl.RED, gl.UNSIGNED_BYTE, frames[n % 16]);
  gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
}
let tick = 0;
window.draw = () => {
  tick++;
  const changed = [1, ...(tick % 7 === 0 ? [0] : []), ...(tick === 1 ? [0, 2] : [])];
  for (const view of views) for (const p of view.canvas.panels) if (variant === 'one-all' || changed.includes(p)) drawPanel(view, p, tick);
};
window.play = async (ms) => {
  const start = performance.now(); let painted = 0;
  while (performance.now() - start < ms) { await new Promise((r) => requestAnimationFrame(r)); window.draw(); painted++; }
  return painted / ((performance.now() - start) / 1000);
};
window.draw();
</script></body></html>`;
}

const browser = await launchChromium();
const pages = new Map<Variant, Awaited<ReturnType<typeof browser.newPage>>>();
for (const variant of VARIANTS) {
  const p = await (await browser.newContext({ viewport: { width: 1600, height: 900 } })).newPage();
  await p.setContent(page(variant));
  pages.set(variant, p);
}
const fps: Record<string, number[]> = {};
const cpu: Record<string, number[]> = {};
for (let round = 0; round < ROUNDS; round++) {
  for (const variant of round % 2 ? [...VARIANTS].reverse() : VARIANTS) {
    const p = pages.get(variant)!;
    await p.bringToFront();
    await p.waitForTimeout(300);
    const before = descendantCpuSeconds();
    const rate = await p.evaluate((ms) => (window as unknown as { play: (ms: number) => Promise<number> }).play(ms), MS);
    const used = descendantCpuSeconds() - before;
    (fps[variant] ??= []).push(rate);
    (cpu[variant] ??= []).push((used * 1000) / (rate * (MS / 1000)));
    console.info(`round ${round + 1} ${variant}: ${rate.toFixed(1)} fps, ${cpu[variant]!.at(-1)!.toFixed(1)} ms CPU per painted frame`);
  }
}
for (const v of VARIANTS) console.info(`median ${v}: ${percentile(fps[v]!, 0.5).toFixed(1)} fps, ${percentile(cpu[v]!, 0.5).toFixed(1)} ms CPU per painted frame`);
await browser.close();
