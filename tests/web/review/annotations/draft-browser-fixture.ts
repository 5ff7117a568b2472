import { openDB } from 'idb';
import { vi, expect } from 'vitest';
import { emptyManifest, type AnnotationManifest } from '../../../../src/domain/annotations/manifest.ts';
import { AnnotationStore } from '../../../../src/web/review/manifest/annotation-store.ts';
import { ASIDE_COPY_PREFIX } from '../../../../src/web/review/annotations/draft-asides.ts';
import { createDraftStore } from '../../../../src/web/review/annotations/draft-store.ts';
import { DraftSync } from '../../../../src/web/review/annotations/draft-sync.ts';
import type { TabChannel } from '../../../../src/web/review/annotations/draft-tabs.ts';
import { NOW, RECORD, freshDatabaseName, owner, ruler } from './draft-fixture.ts';

/**
 * Several tabs of one browser with Dana's record r1 open: one IndexedDB database and one real
 * BroadcastChannel name of their own per browser, and Web Storage (jsdom's, shared by all).
 */

let browsers = 0;

export const ends = (manifest: AnnotationManifest | undefined) => manifest?.ruler.map((r) => r.endX) ?? null;

/** Every aside entry in Web Storage, as ruler ends, read as it is (a draft store's read would move one into IndexedDB). */
export const asides = () =>
  Object.keys(localStorage)
    .filter((key) => key.startsWith(ASIDE_COPY_PREFIX))
    .map((key) => ends((JSON.parse(localStorage.getItem(key) ?? 'null') as { manifest: AnnotationManifest }).manifest));

/** A tab's channel whose incoming messages wait until `release`: another tab's word still on its way. */
export function heldChannel(name: string): { channel: TabChannel; release: () => void } {
  const real = new BroadcastChannel(name);
  const listeners: ((event: MessageEvent) => void)[] = [];
  let held: MessageEvent[] | null = [];
  real.addEventListener('message', (event) => (held ? held.push(event) : listeners.forEach((listener) => listener(event))));
  const channel: TabChannel = {
    postMessage: (message) => real.postMessage(message),
    addEventListener: (_type, listener) => listeners.push(listener),
    close: () => real.close(),
  };
  const release = () => {
    const waiting = held ?? [];
    held = null;
    waiting.forEach((event) => listeners.forEach((listener) => listener(event)));
  };
  return { channel, release };
}

/** A tab's channel on which the other tabs' words arrive `latencyMs` late, as between two busy renderer processes. */
export function slowChannel(name: string, latencyMs: number): TabChannel {
  const real = new BroadcastChannel(name);
  return {
    postMessage: (message) => real.postMessage(message),
    addEventListener: (type, listener) => real.addEventListener(type, (event) => void setTimeout(() => listener(event), latencyMs)),
    close: () => real.close(),
  };
}

export function browser(stops: (() => void)[]) {
  const name = freshDatabaseName('browser');
  const channelName = `draft-browser-${++browsers}`;
  let clock = NOW;
  /** A tab; `latencyMs`: the others' words reach it that late (slowChannel); `channel`: its own channel instead. */
  const tab = ({ delayMs = 5, latencyMs = 0, channel = () => (latencyMs > 0 ? slowChannel(channelName, latencyMs) : (new BroadcastChannel(channelName) as TabChannel)) } = {}) => {
    const drafts = createDraftStore({ name, now: () => clock });
    const store = new AnnotationStore();
    const sync = new DraftSync({ store, drafts, owner, patientId: 'P-7', recordId: RECORD, delayMs, now: () => ++clock, tabChannel: channel });
    const stop = sync.start();
    stops.push(stop);
    store.load({ version: 2, manifest: emptyManifest(), savedBy: 'eli@demo.test', savedAt: '2026-11-01T00:00:00Z' });
    return {
      sync,
      store,
      stop,
      addRuler: (x: number) => store.add(ruler(store.getSnapshot().manifest, x)),
      own: () => ends(store.getSnapshot().history.present),
    };
  };
  /** The record's draft in IndexedDB, read as it is. */
  const kept = async () => {
    const db = await openDB(name);
    const stored = (await db.get('drafts', JSON.stringify([owner.issuer, owner.subject, RECORD]))) as { manifest: AnnotationManifest } | undefined;
    db.close();
    return ends(stored?.manifest);
  };
  return { name, channelName, tab, kept, offeredInTurn: () => offeredInTurn(tab), seed: (manifest: AnnotationManifest, updatedAt: number) => createDraftStore({ name }).saveDraft(owner, { recordId: RECORD, patientId: 'P-7', baseVersion: 2, manifest, updatedAt }) };
}

/** Every draft the next open of the record (a new tab) offers, one after the other (each discarded in turn). */
export async function offeredInTurn(tab: () => { sync: DraftSync }): Promise<(number[] | null)[]> {
  const next = tab();
  const offered: (number[] | null)[] = [];
  for (;;) {
    // Each lookup (the first, and the next after a discard) has ended before its offer is read.
    await lookedUp(next);
    const offer = next.sync.getOffer();
    if (!offer) return offered;
    offered.push(ends(offer.draft.manifest));
    next.sync.discard();
  }
}

/** The tabs' lookups of an earlier draft have ended (one is offered, or none was found). */
export const lookedUp = (...tabs: { sync: DraftSync }[]) => vi.waitFor(() => expect(tabs.every((tab) => tab.sync.lookupEnded())).toBe(true));
