import { describe, expect, it } from 'vitest';
import { boxFilter, boxFilterValuesAndSquares } from '../../../src/domain/contours/box-filter.ts';

describe('boxFilterValuesAndSquares', () => {
  it('gives the box means of the image and of its squares bit for bit as two boxFilter calls', () => {
    const angles = 37;
    const samples = 53;
    const n = angles * samples;
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648) * 255;
    const image = Float32Array.from({ length: n }, random);
    const squares = Float32Array.from(image, (v) => v * v);
    for (const [halfRays, halfSamples] of [[1, 1], [2, 4], [0, 30]] as const) {
      const expectedMean = new Float32Array(n);
      const expectedSquares = new Float32Array(n);
      const scratch = new Float32Array(n);
      const running = new Float64Array(samples + 1);
      boxFilter(image, expectedMean, scratch, running, angles, samples, halfRays, halfSamples);
      boxFilter(squares, expectedSquares, scratch, running, angles, samples, halfRays, halfSamples);
      const mean = new Float32Array(n);
      const meanOfSquares = new Float32Array(n);
      const pair = { values: new Float32Array(n), squares: new Float32Array(n), running: new Float64Array(samples + 1), runningSquares: new Float64Array(samples + 1) };
      boxFilterValuesAndSquares(image, mean, meanOfSquares, pair, angles, samples, halfRays, halfSamples);
      expect(mean).toEqual(expectedMean);
      expect(meanOfSquares).toEqual(expectedSquares);
    }
  });
});
