import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOW, stoppedAfterEach, withRuler } from './draft-fixture.ts';
import { asides, browser, lookedUp } from './draft-browser-fixture.ts';

/**
 * Two tabs offered the same kept draft, both restoring it at (nearly) the same moment: restoring is
 * a claim, so exactly one holds the draft; the other keeps its edits aside at once (no pagehide
 * needed: a tab killed then loses nothing) and is told the record is open with unsaved annotations
 * in another tab. Nothing of either is replaced: both are offered at the next open.
 */

const stops = stoppedAfterEach();
afterEach(() => localStorage.clear());

const later = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Two tabs offered the draft [50]; one restores it and draws, then the other `gapMs` later. Each
 * hears the other `latencyMs` late (0: as soon as jsdom's BroadcastChannel delivers).
 */
async function bothRestore({ gapMs, secondFirst, latencyMs }: { gapMs: number; secondFirst: boolean; latencyMs: number }) {
  const browse = browser(stops);
  await browse.seed(withRuler(50), NOW - 60_000);
  const [a, b] = [browse.tab({ latencyMs }), browse.tab({ latencyMs })];
  await lookedUp(a, b);
  expect([a.sync.getOffer(), b.sync.getOffer()].map((offer) => offer?.draft.manifest.ruler[0]?.endX)).toEqual([50, 50]);
  const [early, late] = secondFirst ? [b, a] : [a, b];
  early.sync.restore();
  early.addRuler(early === a ? 30 : 60);
  if (gapMs > 0) await later(gapMs);
  late.sync.restore();
  late.addRuler(late === a ? 30 : 60);
  return { ...browse, a, b };
}

describe('two tabs restoring the same offer at the same moment', () => {
  // The second restore 0 to 8 ms after the first, either tab first; each tab's word reaching the other at once, or 20 ms late.
  const interleavings = [0, 20].flatMap((latencyMs) => [0, 1, 3, 8].flatMap((gapMs) => [false, true].map((secondFirst) => ({ gapMs, secondFirst, latencyMs }))));
  for (const { gapMs, secondFirst, latencyMs } of interleavings) {
    it(`exactly one holds the draft, the other keeps its edits aside at once and is told (${gapMs} ms apart${secondFirst ? ', second tab first' : ''}, tabs heard ${latencyMs} ms late)`, async () => {
      const { a, b, kept, offeredInTurn } = await bothRestore({ gapMs, secondFirst, latencyMs });
      // The draft holds one tab's own edits, and the other's are in its aside entry: neither replaced.
      await vi.waitFor(async () => expect([a.own(), b.own()]).toContainEqual(await kept()));
      await vi.waitFor(() => expect(asides()).toHaveLength(1));
      const [winner, loser] = (await kept())?.includes(30) ? [a, b] : [b, a];
      expect(await kept()).toEqual(winner.own());
      expect(asides()).toEqual([loser.own()]);
      expect([winner.sync.tabs.draftHeldElsewhere(), loser.sync.tabs.draftHeldElsewhere()]).toEqual([false, true]);
      await vi.waitFor(() => expect(loser.sync.tabs.getState()).toEqual({ unsaved: true, draftIsTheirs: true }));

      // Both tabs closed: the next open offers both, the holder's first.
      a.stop();
      b.stop();
      expect(await offeredInTurn()).toEqual([winner.own(), loser.own()]);
    });
  }
});

describe('restoring a draft that another open tab holds', () => {
  it('leaves it that tab’s: the restoring tab’s edits are kept beside it', async () => {
    const browse = browser(stops);
    const holder = browse.tab();
    await lookedUp(holder);
    holder.addRuler(30);
    await vi.waitFor(async () => expect(await browse.kept()).toEqual([30]));
    const other = browse.tab();
    await vi.waitFor(() => expect(other.sync.getOffer()?.draft.manifest.ruler[0]?.endX).toBe(30));
    other.sync.restore();
    other.addRuler(60);
    await vi.waitFor(() => expect(asides()).toEqual([[30, 60]]));
    holder.addRuler(40);
    await vi.waitFor(async () => expect(await browse.kept()).toEqual([30, 40]));
    expect(holder.sync.tabs.draftHeldElsewhere()).toBe(false);
  });
});
