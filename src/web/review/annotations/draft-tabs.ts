/**
 * The other tabs of this browser where the same user has the same record open. They would share
 * one kept draft (one IndexedDB key per user and record), each write replacing the other tab's
 * edits. Instead, the tab that wrote it holds it: the others keep their edits beside it
 * (draft-store.ts keepAside) until it deletes it (saved, discarded), and the next open offers both
 * in turn. A tab is told when another has unsaved edits, and when the draft holds another's.
 *
 * Once the draft is deleted, the tabs with unsaved edits all take it over at once: each claims it
 * (draft-store.ts claimDraft, write only if none is there), exactly one wins and says `wrote`, and
 * the others keep their edits aside at once (claimLost), not only as their page goes.
 *
 * Tabs speak over a BroadcastChannel, about one draft key at a time, and say only whether they hold
 * unsaved edits or the draft, and when they write or delete it; no annotation leaves the tab. A
 * browser without BroadcastChannel behaves as before: the last write wins, and no notice is shown.
 */

export const DRAFT_TABS_CHANNEL = 'ivus-review-draft-tabs';

type TabMessage =
  | { kind: 'ask' | 'gone' | 'wrote' | 'deleted'; key: string; tab: string }
  | { kind: 'here'; key: string; tab: string; unsaved: boolean; holds: boolean };

/** What this tab knows of the others with the same record open. */
export interface OtherTabs {
  /** Another tab has unsaved edits of this record. */
  unsaved: boolean;
  /** The kept draft holds another tab's edits (this one's wait beside it), while this one has unsaved edits. */
  draftIsTheirs: boolean;
}

/** The part of a BroadcastChannel used here. */
export interface TabChannel {
  postMessage(message: unknown): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface DraftTabsOptions {
  /** Opens the channel; null where the browser has none. */
  channel?: () => TabChannel | null;
  /** Another tab deleted the shared draft (it saved, or discarded) while this tab has unsaved edits. */
  onDraftDeletedElsewhere?: () => void;
}

const NONE: OtherTabs = { unsaved: false, draftIsTheirs: false };

function browserChannel(): TabChannel | null {
  return typeof BroadcastChannel === 'undefined' ? null : new BroadcastChannel(DRAFT_TABS_CHANNEL);
}

function isTabMessage(data: unknown): data is TabMessage {
  if (typeof data !== 'object' || data === null) return false;
  const { kind, key, tab } = data as Record<string, unknown>;
  return typeof key === 'string' && typeof tab === 'string' && ['ask', 'here', 'gone', 'wrote', 'deleted'].includes(kind as string);
}

export class DraftTabs {
  /** This tab, among the others: random, since two tabs of one page have nothing else to tell them apart. */
  private readonly tab = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
  private channel: TabChannel | null = null;
  /** The other tabs with this record open, and whether each has unsaved edits. */
  private readonly others = new Map<string, boolean>();
  private unsaved = false;
  /** Which tab's edits the kept draft holds, as far as this tab has heard. */
  private heldBy: 'this' | 'other' | null = null;
  private state: OtherTabs = NONE;
  private readonly listeners = new Set<() => void>();
  private readonly key: string;
  private readonly options: DraftTabsOptions;

  constructor(key: string, options: DraftTabsOptions = {}) {
    this.key = key;
    this.options = options;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getState = (): OtherTabs => this.state;

  /** The kept draft holds another tab's edits: this tab's must be kept beside it, not over it. */
  draftHeldElsewhere(): boolean {
    return this.heldBy === 'other';
  }

  /** Joins: says whether this tab has unsaved edits and asks the others to say theirs. */
  open(unsaved: boolean): void {
    if (this.channel) return;
    try {
      this.channel = (this.options.channel ?? browserChannel)();
    } catch {
      this.channel = null;
    }
    this.channel?.addEventListener('message', (event) => this.receive(event.data));
    this.unsaved = unsaved;
    this.post('here');
    this.post('ask');
  }

  /** Leaves (the review closes): the others forget this tab. */
  close(): void {
    this.post('gone');
    this.channel?.close();
    this.channel = null;
    this.others.clear();
    this.update();
  }

  /** The page is going (it may come back from the back-forward cache: `here` again then). */
  hide(): void {
    this.post('gone');
  }

  show(): void {
    this.post('here');
    this.post('ask');
  }

  setUnsaved(unsaved: boolean): void {
    if (unsaved === this.unsaved) return;
    this.unsaved = unsaved;
    this.post('here');
    this.update();
  }

  /** This tab wrote the shared draft: it holds this tab's edits now. */
  wrote(): void {
    this.heldBy = 'this';
    this.post('wrote');
    this.update();
  }

  /** Another tab claimed the deleted draft first (draft-store.ts claimDraft): it holds it now. */
  claimLost(): void {
    this.heldBy = 'other';
    this.update();
  }

  /** This tab deleted the shared draft (the deletion is done): the others may take it over. */
  deleted(): void {
    this.heldBy = null;
    this.post('deleted');
    this.update();
  }

  private post(kind: TabMessage['kind']): void {
    const message: TabMessage =
      kind === 'here' ? { kind, key: this.key, tab: this.tab, unsaved: this.unsaved, holds: this.heldBy === 'this' } : { kind, key: this.key, tab: this.tab };
    try {
      this.channel?.postMessage(message);
    } catch {
      // A closed channel (the page is going): the others find out when they next ask.
    }
  }

  private receive(data: unknown): void {
    if (!isTabMessage(data) || data.key !== this.key || data.tab === this.tab) return;
    switch (data.kind) {
      case 'ask':
        this.post('here');
        return;
      case 'here':
        this.others.set(data.tab, data.unsaved === true);
        if (data.holds === true) this.heldBy = 'other';
        break;
      case 'gone':
        this.others.delete(data.tab);
        break;
      case 'wrote':
        this.others.set(data.tab, true);
        this.heldBy = 'other';
        break;
      case 'deleted':
        this.heldBy = null;
        if (this.unsaved) this.options.onDraftDeletedElsewhere?.();
        break;
    }
    this.update();
  }

  private update(): void {
    const unsaved = [...this.others.values()].some(Boolean);
    const draftIsTheirs = this.heldBy === 'other' && this.unsaved;
    if (unsaved === this.state.unsaved && draftIsTheirs === this.state.draftIsTheirs) return;
    this.state = unsaved || draftIsTheirs ? { unsaved, draftIsTheirs } : NONE;
    for (const listener of this.listeners) listener();
  }
}
