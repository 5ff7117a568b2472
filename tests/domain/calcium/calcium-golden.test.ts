/**
 * The calcium detector's lumen radii, arcs, per-ray readings and the server's calcium fields on
 * fixed generated frames, bit for bit (calcium-golden.ts): the speed work on calcium (issue 23)
 * must not move a single arc or reading. Digests made on the detector before any speed work. A
 * deliberate change of the detector's output regenerates the fixture with
 *   WRITE_CALCIUM_GOLDEN=1 npx vitest run tests/domain/calcium/calcium-golden.test.ts
 * and says so in its commit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CALCIUM_CASE_TYPES, calciumGoldenDigest } from './calcium-golden.ts';

const fixturePath = new URL('./calcium-golden.json', import.meta.url);
const write = process.env['WRITE_CALCIUM_GOLDEN'] === '1';

describe('the calcium detector on fixed frames', () => {
  if (write) {
    it('writes the golden digests', () => {
      const all = Object.fromEntries(CALCIUM_CASE_TYPES.map((type) => [type, calciumGoldenDigest(type)]));
      writeFileSync(fixturePath, `${JSON.stringify(all, null, 2)}\n`);
    }, 300_000);
    return;
  }
  const golden = JSON.parse(readFileSync(fixturePath, 'utf8')) as Record<string, { digest: string; frames: number; calcified: number }>;
  it.each(CALCIUM_CASE_TYPES)('gives the same radii, arcs and ray readings, bit for bit, on %s frames', (type) => {
    expect(calciumGoldenDigest(type)).toEqual(golden[type]);
  }, 60_000);
});
