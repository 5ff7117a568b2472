/**
 * The strut detector's struts, wall bins and per-line readings on fixed generated frames, bit for
 * bit (strut-golden.ts): the speed work on the struts (issue 23) must not move a single strut or
 * wall bin. Digests made on the detector before any speed work. A deliberate change of the
 * detector's output regenerates the fixture with
 *   WRITE_STRUT_GOLDEN=1 npx vitest run tests/domain/stent/strut-golden.test.ts
 * and says so in its commit.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { STRUT_CASE_TYPES, strutGoldenDigest } from './strut-golden.ts';

const fixturePath = new URL('./strut-golden.json', import.meta.url);
const write = process.env['WRITE_STRUT_GOLDEN'] === '1';

describe('the strut detector on fixed frames', () => {
  if (write) {
    it('writes the golden digests', () => {
      const all = Object.fromEntries(STRUT_CASE_TYPES.map((type) => [type, strutGoldenDigest(type)]));
      writeFileSync(fixturePath, `${JSON.stringify(all, null, 2)}\n`);
    }, 300_000);
    return;
  }
  const golden = JSON.parse(readFileSync(fixturePath, 'utf8')) as Record<string, { digest: string; frames: number; struts: number }>;
  it.each(STRUT_CASE_TYPES)('gives the same struts, wall bins and line readings, bit for bit, on %s frames', (type) => {
    expect(strutGoldenDigest(type)).toEqual(golden[type]);
  }, 60_000);
});
