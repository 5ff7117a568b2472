import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTACKS, dataFingerprint } from '../support/attack-catalogue.ts';
import { createAttackTarget } from '../support/attack-target.ts';
import { postgresUnavailable } from './test-server.ts';

describe.skipIf(postgresUnavailable)('attack suite: every attack is refused with the right status and changes no data', () => {
  let target: Awaited<ReturnType<typeof createAttackTarget>>;
  let before: Record<string, string>;
  beforeAll(async () => {
    target = await createAttackTarget();
    before = await dataFingerprint(target.database);
  });
  afterAll(() => target.close());

  it.each(ATTACKS.map((attack) => [`${attack.category}: ${attack.name}`, attack] as const))('%s', async (_, attack) => {
    expect(attack.expected).toContain(await attack.run(target));
    expect(await dataFingerprint(target.database)).toEqual(before);
  }, 30_000);
});
