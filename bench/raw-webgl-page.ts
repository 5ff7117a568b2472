/**
 * The baseline pages of bench:review: the record's B-mode frames drawn as one quad, with nothing
 * else on the page: the practical limit here. Two ways to hold the frames, measured side by side:
 * - 'array': every frame uploaded once into r8 texture arrays (as few as the GPU allows: SwiftShader
 *   takes 2,048 layers an array, fewer than a long pullback has); a slice change only draws;
 * - 'single': the frames kept once in the page's memory and one r8 texture re-uploaded from them
 *   on each slice change (the review's way: see src/web/review/panels/panel-renderer.ts).
 * The 'single' page, which keeps the frames' bytes, also builds the L-mode at a given cut angle
 * in plain JS (lmodeRecompute): the baseline of the review's L-mode recompute.
 * Both play a cine (playCine, stopCine) as the review plays: a 10 ms tick moves the slice, the
 * next animation frame draws it: the baseline of the review's painted playback.
 */
export type TextureStrategy = 'array' | 'single';

export function rawWebglPage(strategy: TextureStrategy): string {
  const array = strategy === 'array';
  return `<!doctype html><html><body style="margin:0;background:#000">
<canvas id="c" width="700" height="700"></canvas>
<script type="module">
const canvas = document.getElementById('c');
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true });
const vs = \`#version 300 es
in vec2 p; out vec2 uv; void main() { uv = p * 0.5 + 0.5; uv.y = 1.0 - uv.y; gl_Position = vec4(p, 0, 1); }\`;
const fs = \`#version 300 es
precision highp float; precision highp sampler2DArray;
${array ? 'uniform sampler2DArray frames; uniform float layer;' : 'uniform sampler2D frames;'} in vec2 uv; out vec4 color;
void main() { float v = ${array ? 'texture(frames, vec3(uv, layer)).r' : 'texture(frames, uv).r'}; color = vec4(v, v, v, 1); }\`;
const program = gl.createProgram();
for (const [type, source] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
  const shader = gl.createShader(type); gl.shaderSource(shader, source); gl.compileShader(shader); gl.attachShader(program, shader);
}
gl.linkProgram(program); gl.useProgram(program);
const buffer = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
const target = ${array ? 'gl.TEXTURE_2D_ARRAY' : 'gl.TEXTURE_2D'};
const newTexture = () => {
  const texture = gl.createTexture(); gl.bindTexture(target, texture);
  gl.texParameteri(target, gl.TEXTURE_MIN_FILTER, gl.LINEAR); gl.texParameteri(target, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  return texture;
};
const textures = [];
// Whole chunks of 16 frames an array, so that no chunk straddles two.
const layersPerArray = Math.floor(gl.getParameter(gl.MAX_ARRAY_TEXTURE_LAYERS) / 16) * 16;
const layerLocation = gl.getUniformLocation(program, 'layer');
const chunks = [];
let frameSize = 0;
window.rawState = { slice: 1, loaded: 0 };
window.drawSlice = (slice) => {
  window.rawState.slice = slice;
  ${
    array
      ? 'gl.bindTexture(gl.TEXTURE_2D_ARRAY, textures[Math.floor((slice - 1) / layersPerArray)]); gl.uniform1f(layerLocation, (slice - 1) % layersPerArray);'
      : `const chunk = chunks[Math.floor((slice - 1) / 16)];
  if (chunk) gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, window.rawState.width, window.rawState.height, gl.RED, gl.UNSIGNED_BYTE, chunk.subarray(((slice - 1) % 16) * frameSize, ((slice - 1) % 16 + 1) * frameSize));`
  }
  gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  canvas.dataset.drawnSlice = String(slice);
};
window.loadFrames = async (chunkUrls, count, width, height, authorization) => {
  Object.assign(window.rawState, { width, height });
  frameSize = width * height;
  ${
    array
      ? `for (let first = 0; first < count; first += layersPerArray) {
    textures.push(newTexture());
    gl.texStorage3D(gl.TEXTURE_2D_ARRAY, 1, gl.R8, width, height, Math.min(layersPerArray, count - first));
  }`
      : 'textures.push(newTexture()); gl.texStorage2D(gl.TEXTURE_2D, 1, gl.R8, width, height);'
  }
  let next = 0;
  const worker = async () => {
    while (next < chunkUrls.length) {
      const index = next++;
      const bytes = new Uint8Array(await (await fetch(chunkUrls[index], { headers: { Authorization: authorization } })).arrayBuffer());
      const frames = bytes.length / frameSize;
      ${
        array
          ? `const first = index * 16;
      gl.bindTexture(gl.TEXTURE_2D_ARRAY, textures[Math.floor(first / layersPerArray)]);
      gl.texSubImage3D(gl.TEXTURE_2D_ARRAY, 0, 0, 0, first % layersPerArray, width, height, frames, gl.RED, gl.UNSIGNED_BYTE, bytes);`
          : 'chunks[index] = bytes;'
      }
      window.rawState.loaded += frames;
      if (index === 0) window.drawSlice(1);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
  // Anything refused (a texture too large, say) would make the baseline meaningless: the bench says so.
  window.rawState.glError = gl.getError();
};
${CINE_SCRIPT}
${array ? '' : LMODE_SCRIPT}</script></body></html>`;
}

/**
 * The L-mode at a cut angle from the chunks in memory: bilinear samples along the line through
 * each frame's centre (offsets and weights computed once per angle), one r8 upload, one draw.
 * Returns the milliseconds it took.
 */
const LMODE_SCRIPT = `
const lmodeTexture = gl.createTexture();
window.lmodeRecompute = (angleRad, count) => {
  const start = performance.now();
  const { width, height } = window.rawState;
  const length = Math.max(width, height);
  const offsets = new Int32Array(length * 4);
  const weights = new Float32Array(length * 4);
  for (let k = 0; k < length; k++) {
    const t = k + 0.5 - length / 2;
    const x = width / 2 + t * Math.cos(angleRad) - 0.5;
    const y = height / 2 + t * Math.sin(angleRad) - 0.5;
    const c = Math.floor(x), r = Math.floor(y), fx = x - c, fy = y - r;
    const near = [[c, r, (1 - fx) * (1 - fy)], [c + 1, r, fx * (1 - fy)], [c, r + 1, (1 - fx) * fy], [c + 1, r + 1, fx * fy]];
    for (let n = 0; n < 4; n++) {
      const [nc, nr, w] = near[n];
      const inside = nc >= 0 && nr >= 0 && nc < width && nr < height;
      offsets[k * 4 + n] = inside ? nr * width + nc : 0;
      weights[k * 4 + n] = inside ? w : 0;
    }
  }
  const image = new Uint8Array(length * count);
  for (let f = 0; f < count; f++) {
    const chunk = chunks[Math.floor(f / 16)];
    if (!chunk) continue;
    const base = (f % 16) * frameSize;
    for (let k = 0, i = 0, out = f; k < length; k++, i += 4, out += count) {
      image[out] = chunk[base + offsets[i]] * weights[i] + chunk[base + offsets[i + 1]] * weights[i + 1] +
        chunk[base + offsets[i + 2]] * weights[i + 2] + chunk[base + offsets[i + 3]] * weights[i + 3] + 0.5;
    }
  }
  gl.bindTexture(gl.TEXTURE_2D, lmodeTexture);
  gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MIN_FILTER, gl.LINEAR); gl.texParameteri(gl.TEXTURE_2D, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
  gl.texImage2D(gl.TEXTURE_2D, 0, gl.R8, count, length, 0, gl.RED, gl.UNSIGNED_BYTE, image);
  gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
  const ms = performance.now() - start;
  // Slice changes re-upload into the frames' texture: bind it back.
  gl.bindTexture(gl.TEXTURE_2D, textures[0]);
  return ms;
};
`;

/**
 * The raw page's cine, built like the review's playback (src/web/review/playback): a 10 ms tick
 * (PLAYBACK_STEP_MS, the spec's 100 slices a second) moves the slice; the next animation frame
 * draws whichever slice is current, so the painted rate is what the page can draw, at most the
 * display's.
 */
const CINE_SCRIPT = `
let cineTimer = 0;
let cineFrame = 0;
let cineSlice = 1;
window.playCine = () => {
  cineSlice = window.rawState.slice;
  const draw = () => {
    cineFrame = 0;
    if (cineSlice !== window.rawState.slice) window.drawSlice(cineSlice);
  };
  cineTimer = setInterval(() => {
    cineSlice = cineSlice >= window.rawState.loaded ? 1 : cineSlice + 1;
    if (!cineFrame) cineFrame = requestAnimationFrame(draw);
  }, 10);
};
window.stopCine = () => {
  clearInterval(cineTimer);
  cancelAnimationFrame(cineFrame);
  cineFrame = 0;
};
`;
