/**
 * A deployed stent on a short pullback (the post-PCI demo runs are 10 to 28 mm): the stent still
 * covers the lesion, with a few mm of native vessel on each side for its edges and references,
 * while pullbacks long enough (every stent case) keep their 7 mm margins.
 */
import { describe, expect, it } from 'vitest';
import { drawDeployedStent, STENT_MARGIN_MM } from '../../../src/domain/synthetic/deployed-stent.ts';

describe('a deployed stent on a short pullback', () => {
  it.each([10, 11.7, 15, 20])('covers the lesion of a %s mm pullback with native vessel on each side', (lengthMm) => {
    for (let seed = 1; seed <= 20; seed++) {
      const stenosisCentreMm = lengthMm * (0.42 + (0.18 * seed) / 20);
      const stent = drawDeployedStent(seed, lengthMm, stenosisCentreMm, 8);
      expect(stent.startMm).toBeLessThan(stenosisCentreMm);
      expect(stent.endMm).toBeGreaterThan(stenosisCentreMm);
      expect(stent.startMm).toBeGreaterThanOrEqual(2.5);
      expect(lengthMm - stent.endMm).toBeGreaterThanOrEqual(2.5 - 1e-9);
      expect(stent.endMm - stent.startMm).toBeGreaterThanOrEqual(Math.min(5, lengthMm - 5) - 1e-9);
    }
  });

  it('keeps 7 mm of native vessel on each side of a long enough pullback', () => {
    for (let seed = 1; seed <= 20; seed++) {
      const stent = drawDeployedStent(seed, 40, 20, 8);
      expect(stent.startMm).toBeGreaterThanOrEqual(STENT_MARGIN_MM);
      expect(40 - stent.endMm).toBeGreaterThanOrEqual(STENT_MARGIN_MM - 1e-9);
    }
  });
});
