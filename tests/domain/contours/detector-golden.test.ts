/**
 * The detector's borders and confidences on a fixed set of generated frames, bit for bit
 * (detector-golden.ts): the speed work on the detector (issue 23) must not move a single stored
 * border. A deliberate change of the detector's output regenerates the fixture with
 *   WRITE_DETECTOR_GOLDEN=1 npx vitest run tests/domain/contours/detector-golden.test.ts
 * and says so in its commit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { EVALUATION_CASE_TYPES } from '../../../src/domain/synthetic/evaluation-cases.ts';
import { goldenDigests } from './detector-golden.ts';

const fixturePath = new URL('./detector-golden.json', import.meta.url);
const write = process.env['WRITE_DETECTOR_GOLDEN'] === '1';

describe('the border detector on fixed frames', () => {
  if (write) {
    it('writes the golden digests', () => {
      const all = Object.assign({}, ...EVALUATION_CASE_TYPES.map(goldenDigests)) as Record<string, string>;
      writeFileSync(fixturePath, `${JSON.stringify(all, null, 2)}\n`);
    }, 300_000);
    return;
  }
  const golden = JSON.parse(readFileSync(fixturePath, 'utf8')) as Record<string, string>;
  it.each(EVALUATION_CASE_TYPES)('gives the same borders and confidences, bit for bit, on %s frames (alone and in sequences)', (type) => {
    const digests = goldenDigests(type);
    expect(Object.keys(digests).length).toBeGreaterThanOrEqual(3);
    for (const [key, digest] of Object.entries(digests)) expect({ key, digest }).toEqual({ key, digest: golden[key] });
  }, 60_000);
});
