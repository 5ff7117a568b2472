/**
 * Box means over a polar image (angleCount rays of sampleCount samples): (2·halfRays + 1) rays,
 * circular, by (2·halfSamples + 1) samples, truncated at the ends of the ray; running sums, so a
 * map costs two passes over the image whatever the window. The local variance needs the box of
 * the image and of its squares over the same window: boxFilterValuesAndSquares makes both in one
 * pass (issue 23, speed), with exactly the arithmetic of two boxFilter calls (the square rounded
 * to float32, as a Float32Array of squares held it), so its results are the same to the bit.
 */

/**
 * Box mean over (2·halfRays + 1) rays (circular) by (2·halfSamples + 1) samples (truncated at the
 * ends of the ray), from `input` into `out`; `scratch` holds the radial pass.
 */
export function boxFilter(
  input: Float32Array,
  out: Float32Array,
  scratch: Float32Array,
  running: Float64Array,
  angleCount: number,
  sampleCount: number,
  halfRays: number,
  halfSamples: number,
): void {
  // Along each ray: prefix sums, then the window average (fewer samples at the ends). Two rays at a
  // time: each ray's sum is added in its own order as before, the two chains of additions side by
  // side (one chain's additions wait on each other; two keep the processor busy).
  if (secondRunning.length < sampleCount + 1) secondRunning = new Float64Array(sampleCount + 1);
  const running2 = secondRunning;
  let a = 0;
  for (; a + 1 < angleCount; a += 2) {
    const row = a * sampleCount;
    const row2 = row + sampleCount;
    running[0] = 0;
    running2[0] = 0;
    let sum = 0;
    let sum2 = 0;
    for (let k = 0; k < sampleCount; k++) {
      running[k + 1] = sum += input[row + k]!;
      running2[k + 1] = sum2 += input[row2 + k]!;
    }
    windowMeans(running, scratch, row, sampleCount, halfSamples);
    windowMeans(running2, scratch, row2, sampleCount, halfSamples);
  }
  for (; a < angleCount; a++) {
    const row = a * sampleCount;
    running[0] = 0;
    let sum = 0;
    for (let k = 0; k < sampleCount; k++) running[k + 1] = sum += input[row + k]!;
    windowMeans(running, scratch, row, sampleCount, halfSamples);
  }
  // Across rays, circularly: a running window per sample index.
  const width = 2 * halfRays + 1;
  const sums = running.length >= sampleCount ? running : new Float64Array(sampleCount);
  sums.fill(0, 0, sampleCount);
  for (let d = -halfRays; d <= halfRays; d++) {
    const row = ((d + angleCount) % angleCount) * sampleCount;
    for (let k = 0; k < sampleCount; k++) sums[k]! += scratch[row + k]!;
  }
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    const leaving = ((a - halfRays + angleCount) % angleCount) * sampleCount;
    const entering = ((a + halfRays + 1) % angleCount) * sampleCount;
    for (let k = 0; k < sampleCount; k++) {
      out[row + k] = sums[k]! / width;
      sums[k]! += scratch[entering + k]! - scratch[leaving + k]!;
    }
  }
}

/** The second ray's prefix sums of boxFilter's radial pass (kept between calls: it runs several times a frame). */
let secondRunning = new Float64Array(0);

/** The window means of one ray from its prefix sums `running` into out[row ..]: full windows in the middle, clipped at the ends. */
function windowMeans(running: Float64Array, out: Float32Array, row: number, sampleCount: number, halfSamples: number): void {
  // The full windows in the middle of the ray divide by one width; only the ends clip.
  const fullStart = Math.min(halfSamples, sampleCount);
  const fullEnd = Math.max(fullStart, sampleCount - halfSamples - 1);
  for (let k = 0; k < fullStart; k++) {
    const high = k + halfSamples + 1 > sampleCount ? sampleCount : k + halfSamples + 1;
    out[row + k] = (running[high]! - running[0]!) / high;
  }
  const fullWidth = 2 * halfSamples + 1;
  for (let k = fullStart; k < fullEnd; k++) out[row + k] = (running[k + halfSamples + 1]! - running[k - halfSamples]!) / fullWidth;
  for (let k = fullEnd; k < sampleCount; k++) {
    const low = k - halfSamples < 0 ? 0 : k - halfSamples;
    out[row + k] = (running[sampleCount]! - running[low]!) / (sampleCount - low);
  }
}

export interface PairScratch {
  /** Radial pass of the values and of their squares (angleCount x sampleCount each). */
  readonly values: Float32Array;
  readonly squares: Float32Array;
  /** Prefix sums along a ray, sampleCount + 1 each; reused as the cross-ray sums. */
  readonly running: Float64Array;
  readonly runningSquares: Float64Array;
}

/** boxFilter of `input` into `mean` and of input² into `meanOfSquares`, in one pass. */
export function boxFilterValuesAndSquares(
  input: Float32Array,
  mean: Float32Array,
  meanOfSquares: Float32Array,
  scratch: PairScratch,
  angleCount: number,
  sampleCount: number,
  halfRays: number,
  halfSamples: number,
): void {
  const { values, squares, running, runningSquares } = scratch;
  const fullStart = Math.min(halfSamples, sampleCount);
  const fullEnd = Math.max(fullStart, sampleCount - halfSamples - 1);
  const fullWidth = 2 * halfSamples + 1;
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    running[0] = 0;
    runningSquares[0] = 0;
    let sum = 0;
    let sumOfSquares = 0;
    for (let k = 0; k < sampleCount; k++) {
      const v = input[row + k]!;
      running[k + 1] = sum += v;
      runningSquares[k + 1] = sumOfSquares += Math.fround(v * v);
    }
    for (let k = 0; k < fullStart; k++) {
      const high = k + halfSamples + 1 > sampleCount ? sampleCount : k + halfSamples + 1;
      values[row + k] = (running[high]! - running[0]!) / high;
      squares[row + k] = (runningSquares[high]! - runningSquares[0]!) / high;
    }
    for (let k = fullStart; k < fullEnd; k++) {
      values[row + k] = (running[k + halfSamples + 1]! - running[k - halfSamples]!) / fullWidth;
      squares[row + k] = (runningSquares[k + halfSamples + 1]! - runningSquares[k - halfSamples]!) / fullWidth;
    }
    for (let k = fullEnd; k < sampleCount; k++) {
      const low = k - halfSamples < 0 ? 0 : k - halfSamples;
      values[row + k] = (running[sampleCount]! - running[low]!) / (sampleCount - low);
      squares[row + k] = (runningSquares[sampleCount]! - runningSquares[low]!) / (sampleCount - low);
    }
  }
  const width = 2 * halfRays + 1;
  running.fill(0, 0, sampleCount);
  runningSquares.fill(0, 0, sampleCount);
  for (let d = -halfRays; d <= halfRays; d++) {
    const row = ((d + angleCount) % angleCount) * sampleCount;
    for (let k = 0; k < sampleCount; k++) {
      running[k]! += values[row + k]!;
      runningSquares[k]! += squares[row + k]!;
    }
  }
  for (let a = 0; a < angleCount; a++) {
    const row = a * sampleCount;
    const leaving = ((a - halfRays + angleCount) % angleCount) * sampleCount;
    const entering = ((a + halfRays + 1) % angleCount) * sampleCount;
    for (let k = 0; k < sampleCount; k++) {
      mean[row + k] = running[k]! / width;
      meanOfSquares[row + k] = runningSquares[k]! / width;
      running[k]! += values[entering + k]! - values[leaving + k]!;
      runningSquares[k]! += squares[entering + k]! - squares[leaving + k]!;
    }
  }
}
