/**
 * Polar resampling of a B-mode frame of any width and height around the catheter centre (which
 * need not be the frame's middle): `angleCount` rays, ray a at θ = 2πa / angleCount (0 along +x,
 * towards +y), sample k at radius firstRadiusPx + k · radialStepPx (one sample per pixel, or finer
 * on coarse frames, so that sample spacing in mm stays about the same whatever the pixel size). Pixel
 * (col, row) covers [col, col + 1) x [row, row + 1) (domain/image-point.ts) and a sample is read
 * bilinearly between the four nearest pixel centres. It also says how many samples of each ray lie
 * inside the frame: beyond that a ray has no data, which is not the
 * same as a black (echo-free) sample, and the detector must not read it as blood.
 */

export interface PolarSamplerGeometry {
  readonly frameWidth: number;
  readonly frameHeight: number;
  readonly centreX: number;
  readonly centreY: number;
  readonly angleCount: number;
  readonly firstRadiusPx: number;
  readonly radialStepPx: number;
  readonly sampleCount: number;
}

export interface PolarSampler {
  readonly geometry: PolarSamplerGeometry;
  /** Per ray: samples 0 .. insideCount[a] − 1 lie inside the frame. */
  readonly insideCount: Int32Array;
  /** Writes the polar image (angle-major, angleCount rows of sampleCount) of `frame` into `out`. */
  resample(frame: Uint8Array, out: Float32Array): void;
  /**
   * resample of samples from[a] .. to[a] − 1 of each ray a only (clamped to the ray), the same
   * values to the bit; the other samples of `out` are left as they were. For a reader that reads a
   * band round a border, not the whole field.
   */
  resampleBands(frame: Uint8Array, out: Float32Array, from: Int32Array, to: Int32Array): void;
}

export function createPolarSampler(geometry: PolarSamplerGeometry): PolarSampler {
  const { frameWidth: width, frameHeight: height, centreX, centreY, angleCount, firstRadiusPx, radialStepPx, sampleCount } = geometry;
  const count = angleCount * sampleCount;
  const pixelIndex = new Int32Array(count);
  // Bilinear weights as fractions: w = (1 − fx)(1 − fy), ... computed once.
  const weights = new Float32Array(4 * count);
  const insideCount = new Int32Array(angleCount);
  for (let a = 0; a < angleCount; a++) {
    const angle = (2 * Math.PI * a) / angleCount;
    const dx = Math.cos(angle);
    const dy = Math.sin(angle);
    let inside = 0;
    for (let k = 0; k < sampleCount; k++) {
      const r = firstRadiusPx + k * radialStepPx;
      const x = centreX + r * dx - 0.5;
      const y = centreY + r * dy - 0.5;
      const col = Math.floor(x);
      const row = Math.floor(y);
      const s = a * sampleCount + k;
      if (col < 0 || row < 0 || col + 1 >= width || row + 1 >= height) {
        // The outermost pixel ring reads its clamped pixel; beyond the frame reads 0.
        const within = x >= -0.5 && y >= -0.5 && x <= width - 0.5 && y <= height - 0.5;
        pixelIndex[s] = Math.min(height - 1, Math.max(0, row)) * width + Math.min(width - 1, Math.max(0, col));
        weights[4 * s] = within ? 1 : 0;
        if (within && inside === k) inside++;
        continue;
      }
      const fx = x - col;
      const fy = y - row;
      pixelIndex[s] = row * width + col;
      weights[4 * s] = (1 - fx) * (1 - fy);
      weights[4 * s + 1] = fx * (1 - fy);
      weights[4 * s + 2] = (1 - fx) * fy;
      weights[4 * s + 3] = fx * fy;
      if (inside === k) inside++;
    }
    insideCount[a] = inside;
  }
  // Per ray, the samples whose four bilinear pixels all lie in the frame: [fullFrom, fullTo). The
  // ray is a straight line out of a convex frame, so they are one run; the samples outside it (the
  // frame's edge and beyond) read one weighted pixel. Computed once, so the sampling loop does not
  // test every sample.
  const fullFrom = new Int32Array(angleCount);
  const fullTo = new Int32Array(angleCount);
  for (let a = 0; a < angleCount; a++) {
    let from = -1;
    let to = -1;
    let oneRun = true;
    for (let k = 0; k < sampleCount; k++) {
      const w = (a * sampleCount + k) << 2;
      const single = weights[w + 1] === 0 && weights[w + 2] === 0;
      if (single) continue;
      if (from < 0) from = k;
      else if (to !== k) oneRun = false;
      to = k + 1;
    }
    // Not one run (never seen): every sample goes through the per-sample test.
    fullFrom[a] = oneRun && from >= 0 ? from : 0;
    fullTo[a] = oneRun && from >= 0 ? to : 0;
  }
  const pixels = width * height;
  /** A sample as it always was: edge samples carry one weight only (and p + width may lie past the frame). */
  const edgeSample = (frame: Uint8Array, s: number): number => {
    const p = pixelIndex[s]!;
    const w = s << 2;
    const w0 = weights[w]!;
    const w1 = weights[w + 1]!;
    return w1 === 0 && weights[w + 2] === 0 ? frame[p]! * w0 : frame[p]! * w0 + frame[p + 1]! * w1 + frame[p + width]! * weights[w + 2]! + frame[p + width + 1]! * weights[w + 3]!;
  };
  /** Samples lo .. hi − 1 of ray a into out: edge samples one weighted pixel, the run inside the frame all four. */
  const resampleRay = (frame: Uint8Array, out: Float32Array, a: number, lo: number, hi: number): void => {
    const row = a * sampleCount;
    const end = row + hi;
    const from = row + Math.max(lo, Math.min(hi, fullFrom[a]!));
    const to = Math.max(from, row + Math.min(hi, fullTo[a]!));
    for (let s = row + lo; s < from; s++) out[s] = edgeSample(frame, s);
    for (let s = from; s < to; s++) {
      const p = pixelIndex[s]!;
      const w = s << 2;
      out[s] = frame[p]! * weights[w]! + frame[p + 1]! * weights[w + 1]! + frame[p + width]! * weights[w + 2]! + frame[p + width + 1]! * weights[w + 3]!;
    }
    for (let s = to; s < end; s++) out[s] = edgeSample(frame, s);
  };
  const checkFrame = (frame: Uint8Array): void => {
    if (frame.length !== pixels) throw new RangeError(`frame must hold ${width}x${height} = ${pixels} bytes, got ${frame.length}`);
  };
  return {
    geometry,
    insideCount,
    resample(frame, out) {
      checkFrame(frame);
      for (let a = 0; a < angleCount; a++) resampleRay(frame, out, a, 0, sampleCount);
    },
    resampleBands(frame, out, from, to) {
      checkFrame(frame);
      for (let a = 0; a < angleCount; a++) {
        const lo = Math.max(0, Math.min(sampleCount, from[a]!));
        const hi = Math.max(lo, Math.min(sampleCount, to[a]!));
        if (hi > lo) resampleRay(frame, out, a, lo, hi);
      }
    },
  };
}
