import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stoppedAfterEach } from './draft-fixture.ts';
import { asides, browser, heldChannel, lookedUp } from './draft-browser-fixture.ts';

/**
 * A tab whose page goes (pagehide, hidden) before its first claim of the record's draft cannot wait
 * for a claim's answer. Another tab may have claimed the draft meanwhile, its word of it still on the
 * way: the going tab's edits are kept beside the draft (its own aside entry, synchronously), never
 * over it, and both are offered in turn at the next open.
 */

const stops = stoppedAfterEach();
afterEach(() => localStorage.clear());

describe('a page going before its first claim', () => {
  it('keeps its edits beside a draft another tab claimed meanwhile, not over it: both are offered', async () => {
    const browse = browser(stops);
    const held = heldChannel(browse.channelName);
    const first = browse.tab();
    // The second tab's first claim is a minute away; the first tab's word of its own claim does not reach it yet.
    const second = browse.tab({ delayMs: 60_000, channel: () => held.channel });
    await lookedUp(first, second);
    second.addRuler(60);
    first.addRuler(30);
    await vi.waitFor(async () => expect(await browse.kept()).toEqual([30]));
    first.stop(); // the first tab is closed; its draft stays

    window.dispatchEvent(new Event('pagehide')); // the second tab is reloaded
    expect(asides()).toEqual([[60]]); // synchronously, as the page copy is
    held.release();
    second.stop();
    expect(await browse.kept()).toEqual([30]);

    expect(await browse.offeredInTurn()).toEqual([[30], [60]]);
  });

  it('alone, its edits are offered at the next open; saved instead, they are deleted', async () => {
    const browse = browser(stops);
    const lone = browse.tab({ delayMs: 60_000 });
    await lookedUp(lone);
    lone.addRuler(40);
    window.dispatchEvent(new Event('pagehide'));
    expect(asides()).toEqual([[40]]);
    lone.stop();
    expect(await browse.offeredInTurn()).toEqual([[40]]);

    const saving = browse.tab({ delayMs: 60_000 });
    await lookedUp(saving);
    saving.addRuler(70);
    window.dispatchEvent(new Event('pagehide'));
    expect(asides()).toEqual([[70]]);
    saving.store.markSaved(saving.store.getSnapshot().history.present, 3, 'dana@demo.test', '2026-11-15T09:31:00Z');
    expect(asides()).toEqual([]);
    saving.stop();
    expect(await browse.offeredInTurn()).toEqual([]);
  });
});
