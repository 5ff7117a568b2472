/**
 * The inter-frame motion signal of a pullback, from its pixels alone: how much the picture changes
 * from each frame to the next. Cardiac motion (the anatomy shifting, turning and sliding along the
 * catheter) makes it beat; between beats only blood speckle and the slow pullback change the frame.
 *
 * Frames are averaged over blocks first (about 64 x 64 cells): the blood's speckle, new in every
 * frame, averages out over a block, while a shift of the wall moves whole blocks' means.
 */

/** The frames of one pullback as 8-bit gray, row-major, width x height each. */
export interface GrayFrames {
  readonly width: number;
  readonly height: number;
  readonly frameCount: number;
  frame(index: number): Uint8Array;
}

/** Cells across the downsampled grid. */
export const MOTION_GRID_CELLS = 64;

export interface DownsampledFrame {
  readonly cellsX: number;
  readonly cellsY: number;
  readonly means: Float32Array;
}

export function downsampleFrame(pixels: Uint8Array, width: number, height: number, cells = MOTION_GRID_CELLS): DownsampledFrame {
  if (pixels.length < width * height) throw new RangeError(`a ${width}x${height} frame needs ${width * height} bytes, got ${pixels.length}`);
  const block = Math.max(1, Math.round(Math.max(width, height) / cells));
  const cellsX = Math.ceil(width / block);
  const cellsY = Math.ceil(height / block);
  const sums = new Float32Array(cellsX * cellsY);
  const counts = new Uint32Array(cellsX * cellsY);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / block) * cellsX;
    const offset = y * width;
    for (let x = 0; x < width; x++) {
      const cell = row + Math.floor(x / block);
      sums[cell]! += pixels[offset + x]!;
      counts[cell]! += 1;
    }
  }
  for (let c = 0; c < sums.length; c++) sums[c] = sums[c]! / counts[c]!;
  return { cellsX, cellsY, means: sums };
}

/** Mean absolute difference of two downsampled frames, in gray levels. */
export function frameDifference(a: DownsampledFrame, b: DownsampledFrame): number {
  if (a.means.length !== b.means.length) throw new RangeError('frames of different sizes cannot be compared');
  let sum = 0;
  for (let c = 0; c < a.means.length; c++) sum += Math.abs(a.means[c]! - b.means[c]!);
  return sum / a.means.length;
}

/**
 * motion[i] is the change from frame i to frame i + 1 (frameCount - 1 values). One frame is held at
 * a time besides the previous one's cells, so a record of thousands of frames fits in little memory.
 */
export function motionSignal(frames: GrayFrames): Float64Array {
  const motion = new Float64Array(Math.max(0, frames.frameCount - 1));
  let previous: DownsampledFrame | null = null;
  for (let i = 0; i < frames.frameCount; i++) {
    const current = downsampleFrame(frames.frame(i), frames.width, frames.height);
    if (previous !== null) motion[i - 1] = frameDifference(previous, current);
    previous = current;
  }
  return motion;
}
