#version 300 es
// Frames are single-channel 8-bit (r8unorm) textures: red is the gray value. Brightness and
// contrast are applied here rather than in a Filter, which would cost an extra render pass.
precision highp float;

in vec2 vUV;
out vec4 fragColor;

uniform sampler2D uTexture;
uniform float uBrightness;
uniform float uContrast;

void main() {
  float value = texture(uTexture, vUV).r;
  float gray = clamp((value - 0.5) * uContrast + 0.5 + uBrightness, 0.0, 1.0);
  fragColor = vec4(gray, gray, gray, 1.0);
}
