/**
 * The baseline page of bench:review: the record's B-mode frames uploaded into one r8 texture
 * array and drawn as one quad, with nothing else on the page: the practical limit here.
 */
export const RAW_WEBGL_PAGE = `<!doctype html><html><body style="margin:0;background:#000">
<canvas id="c" width="700" height="700"></canvas>
<script type="module">
const canvas = document.getElementById('c');
const gl = canvas.getContext('webgl2', { preserveDrawingBuffer: true });
const vs = \`#version 300 es
in vec2 p; out vec2 uv; void main() { uv = p * 0.5 + 0.5; uv.y = 1.0 - uv.y; gl_Position = vec4(p, 0, 1); }\`;
const fs = \`#version 300 es
precision highp float; precision highp sampler2DArray;
uniform sampler2DArray frames; uniform float layer; in vec2 uv; out vec4 color;
void main() { float v = texture(frames, vec3(uv, layer)).r; color = vec4(v, v, v, 1); }\`;
const program = gl.createProgram();
for (const [type, source] of [[gl.VERTEX_SHADER, vs], [gl.FRAGMENT_SHADER, fs]]) {
  const shader = gl.createShader(type); gl.shaderSource(shader, source); gl.compileShader(shader); gl.attachShader(program, shader);
}
gl.linkProgram(program); gl.useProgram(program);
const buffer = gl.createBuffer(); gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
gl.bufferData(gl.ARRAY_BUFFER, new Float32Array([-1, -1, 1, -1, -1, 1, 1, 1]), gl.STATIC_DRAW);
gl.enableVertexAttribArray(0); gl.vertexAttribPointer(0, 2, gl.FLOAT, false, 0, 0);
gl.pixelStorei(gl.UNPACK_ALIGNMENT, 1);
const texture = gl.createTexture(); gl.bindTexture(gl.TEXTURE_2D_ARRAY, texture);
gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MIN_FILTER, gl.LINEAR); gl.texParameteri(gl.TEXTURE_2D_ARRAY, gl.TEXTURE_MAG_FILTER, gl.LINEAR);
const layerLocation = gl.getUniformLocation(program, 'layer');
window.rawState = { slice: 1, loaded: 0 };
window.drawSlice = (slice) => { window.rawState.slice = slice; gl.uniform1f(layerLocation, slice - 1); gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4); canvas.dataset.drawnSlice = String(slice); };
window.loadFrames = async (chunkUrls, count, width, height, authorization) => {
  gl.texStorage3D(gl.TEXTURE_2D_ARRAY, 1, gl.R8, width, height, count);
  let next = 0;
  const worker = async () => {
    while (next < chunkUrls.length) {
      const index = next++;
      const bytes = new Uint8Array(await (await fetch(chunkUrls[index], { headers: { Authorization: authorization } })).arrayBuffer());
      const frames = bytes.length / (width * height);
      gl.texSubImage3D(gl.TEXTURE_2D_ARRAY, 0, 0, 0, index * 16, width, height, frames, gl.RED, gl.UNSIGNED_BYTE, bytes);
      window.rawState.loaded += frames;
      if (index === 0) window.drawSlice(1);
    }
  };
  await Promise.all([worker(), worker(), worker(), worker()]);
};
</script></body></html>`;
