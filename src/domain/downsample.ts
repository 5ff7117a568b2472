/** Halves an 8-bit image in each direction by averaging 2x2 blocks (for thumbnails). */
export function downsampleByHalf(pixels: Uint8Array, width: number, height: number): { pixels: Uint8Array; width: number; height: number } {
  const outWidth = Math.floor(width / 2);
  const outHeight = Math.floor(height / 2);
  const out = new Uint8Array(outWidth * outHeight);
  for (let y = 0; y < outHeight; y++) {
    const top = 2 * y * width;
    const bottom = top + width;
    for (let x = 0; x < outWidth; x++) {
      const c = 2 * x;
      out[y * outWidth + x] = (pixels[top + c]! + pixels[top + c + 1]! + pixels[bottom + c]! + pixels[bottom + c + 1]! + 2) >> 2;
    }
  }
  return { pixels: out, width: outWidth, height: outHeight };
}
