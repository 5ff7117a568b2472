import type { AnnotationManifest } from '../../../domain/annotations/manifest.ts';
import { sameJson } from '../../../domain/same-json.ts';
import { hasUnsavedChanges, type AnnotationStore } from '../manifest/annotation-store.ts';
import { newAsideEntryId } from './draft-asides.ts';
import { draftKey } from './draft-record.ts';
import type { AnnotationDraft, DraftOwner, DraftStore } from './draft-store.ts';
import { DraftTabs, type TabChannel } from './draft-tabs.ts';
import { watchPageEnd } from './page-end-events.ts';

/**
 * Keeps one open record's unsaved annotations in the draft store as they are made, and offers a
 * draft left from before (a forced sign-out, a crash, a reload) once the saved version is loaded.
 * Plain TypeScript with no React, so it can be driven and tested on its own; the review wires it
 * in with useAnnotationDraft (draft-prompt.tsx).
 */

/** Edits come in bursts (a drag ends, a note is typed): one write per pause, not per keystroke. */
export const DRAFT_WRITE_DELAY_MS = 300;

/** A draft waiting for the user's answer, and the server's latest version when it was found. */
export interface DraftOffer {
  draft: AnnotationDraft;
  serverVersion: number;
}

export interface DraftSyncOptions {
  store: AnnotationStore;
  drafts: DraftStore;
  owner: DraftOwner;
  patientId: string;
  recordId: string;
  delayMs?: number;
  now?: () => number;
  /** How this tab speaks to the others with the record open (a BroadcastChannel by default). */
  tabChannel?: () => TabChannel | null;
}

type Phase = 'waiting' | 'checking' | 'offering' | 'tracking' | 'stopped';

export class DraftSync {
  private phase: Phase = 'waiting';
  /** Bumped by every start, so a draft lookup of an earlier run (React's development remount) is ignored. */
  private run = 0;
  private offer: DraftOffer | null = null;
  private readonly listeners = new Set<() => void>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** What the draft store holds (or is about to): the manifest and base version last written, or null after a delete. */
  private written: { manifest: AnnotationManifest; version: number; updatedAt: number } | null = null;
  /** The manifest and base version the pending timer (if any) was set for. */
  private scheduled: { manifest: AnnotationManifest; version: number } | null = null;
  /** This tab's edits are kept beside a draft another tab holds (draft-tabs.ts), not in it. */
  private keptAside = false;
  /** This visit's own entry for edits kept aside: a page opening the record again gets another. */
  private readonly asideEntry = newAsideEntryId();
  /** The draft was deleted, or none found, since this tab held it: the next write claims it (another tab may too). */
  private mustClaim = false;
  /** A claim is being answered (edits made meanwhile go aside); `claimAgain`: the draft was deleted again meanwhile. */
  private claiming = false;
  private claimAgain = false;
  /** An offered draft was restored: once it is saved, edits other pages kept aside (if any) are offered next. */
  private restoredOffer = false;
  private readonly delayMs: number;
  private readonly now: () => number;

  private readonly options: DraftSyncOptions;
  /** The other tabs of this browser with the same user's same record open, which share its draft. */
  readonly tabs: DraftTabs;

  constructor(options: DraftSyncOptions) {
    this.options = options;
    this.delayMs = options.delayMs ?? DRAFT_WRITE_DELAY_MS;
    this.now = options.now ?? Date.now;
    this.tabs = new DraftTabs(draftKey(options.owner, options.recordId), {
      channel: options.tabChannel,
      onDraftDeletedElsewhere: () => this.keepOwnAgain(),
    });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The draft to offer, or null. */
  getOffer = (): DraftOffer | null => this.offer;

  /** The lookup of a kept draft has ended: one is offered, or none was found and edits are kept. */
  lookupEnded = (): boolean => this.phase === 'offering' || this.phase === 'tracking';

  /** Starts following the store; answers the stop function, which writes what is pending first. */
  start(): () => void {
    this.phase = 'waiting';
    this.run += 1;
    this.scheduled = null;
    this.restoredOffer = false;
    const unsubscribe = this.options.store.subscribe(this.onChange);
    // The tab may be closed or frozen without warning once hidden: write now rather than in 300 ms,
    // and synchronously, since the page may be gone before an IndexedDB write finishes.
    const stopWatching = watchPageEnd({ going: () => this.keepAtPageEnd(), left: () => this.tabs.hide(), back: () => this.tabs.show(), shown: () => this.resume() });
    this.tabs.open(false);
    this.onChange();
    return () => {
      unsubscribe();
      stopWatching();
      // Leaving the review (including a forced sign-out) must not drop the last 300 ms of work.
      this.flush();
      this.phase = 'stopped';
      this.setOffer(null);
      this.tabs.close();
    };
  }

  /**
   * Applies the offered draft as unsaved edits (one undo step); Save then stores it as the next
   * version. Restoring takes the draft by a claim (draft-store.ts claimOffered): of two tabs
   * restoring the same offer at once, one holds it, and the other keeps its edits aside at once.
   */
  restore(): void {
    const offer = this.offer;
    if (!offer || this.phase !== 'offering') return;
    const { draft, serverVersion } = offer;
    // The draft's base version makes a save over a newer version meet the existing conflict question.
    // A base above the server's latest (its data was reset) would be refused: start from the latest then.
    this.options.store.restoreDraft(draft.manifest, draft.baseVersion <= serverVersion ? draft.baseVersion : serverVersion);
    // A millisecond later than the offered draft, so that another tab's claim of the same offer finds
    // it taken, while the next offer of it still says when its edits were made.
    const claimed = { ...draft, updatedAt: draft.updatedAt + 1 };
    this.written = { manifest: draft.manifest, version: draft.baseVersion, updatedAt: claimed.updatedAt };
    this.restoredOffer = true;
    this.mustClaim = false;
    // A draft another tab holds stays its (it writes on): this tab's edits wait beside it (keep). Edits made before the claim is answered do too.
    this.claiming = !this.tabs.draftHeldElsewhere();
    if (this.claiming) void this.options.drafts.claimOffered(this.options.owner, draft, claimed).then((won) => this.settleClaim(claimed, won));
    this.track();
  }

  /**
   * Deletes the offered draft; edits made while it was offered are kept from now on, once edits
   * kept aside from an earlier page (keepAside), if any, are offered in turn.
   */
  discard(): void {
    if (!this.offer || this.phase !== 'offering') return;
    void this.deleteRecordDraft();
    this.written = null;
    this.setOffer(null);
    this.check();
  }

  /**
   * Deletes this record's draft, whatever is pending or offered (Discard when leaving): nothing of
   * the dropped edits is written afterwards, and no offer stays up.
   */
  async forget(): Promise<void> {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.written = null;
    if (this.phase === 'offering' || this.phase === 'checking') this.phase = 'tracking';
    this.scheduled = null;
    this.setOffer(null);
    await this.deleteKept();
    // Edits of this visit kept aside (as the tab was hidden, say) are discarded with the rest.
    this.options.drafts.dropAside(this.options.owner, this.options.recordId, this.asideEntry);
    this.keptAside = false;
  }

  /** The page is shown again: edits kept aside as it was hidden (this tab did not hold the draft) claim it at once. */
  private resume = () => this.phase === 'tracking' && this.keptAside && this.write();

  /** Writes a pending change now. */
  flush(): void {
    if (this.timer === null) return;
    clearTimeout(this.timer);
    this.timer = null;
    this.write();
  }

  /**
   * The page is hidden or going: unsaved edits are copied to Web Storage at once (the draft store's
   * saveDraftAtPageEnd, or keepAside beside a draft not this page's to replace, including one this
   * tab has not claimed yet), whether or not their IndexedDB write was begun, since it may not finish.
   */
  private keepAtPageEnd(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const { drafts, owner, recordId, patientId, store } = this.options;
    const snapshot = store.getSnapshot();
    if (this.phase === 'checking' || this.phase === 'offering') {
      // A kept draft is still unanswered (being looked up, or offered): edits made meanwhile wait
      // beside it, so that neither overwrites the other; they are offered once it is answered.
      if (!hasUnsavedChanges(snapshot)) return;
      const manifest = snapshot.history.present;
      drafts.keepAside(owner, { recordId, patientId, baseVersion: snapshot.version, manifest, updatedAt: this.now() }, this.asideEntry);
      return;
    }
    if (this.phase !== 'tracking') return;
    if (snapshot.status !== 'ready' || !hasUnsavedChanges(snapshot)) return this.write();
    const manifest = snapshot.history.present;
    // Already written: the copy keeps that write's time, so the offer says when the work was done.
    const same = this.written?.manifest === manifest && this.written.version === snapshot.version;
    const updatedAt = same && this.written ? this.written.updatedAt : this.now();
    // Kept aside (this tab does not hold the draft), they are not written: shown again, the page claims it with them (resume).
    if (!this.tabs.draftHeldElsewhere() && !this.claiming && !this.mustClaim) this.written = { manifest, version: snapshot.version, updatedAt };
    this.keep({ recordId, patientId, baseVersion: snapshot.version, manifest, updatedAt }, true);
  }

  /** Another tab deleted the shared draft (saved, discarded): this tab's unsaved edits claim it at once, as others' may (settleClaim). */
  private keepOwnAgain(): void {
    if (this.phase !== 'tracking') return;
    this.mustClaim = true;
    if (this.claiming) {
      this.claimAgain = true;
      return;
    }
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.written = null;
    this.scheduled = null;
    this.write();
  }

  private onChange = (): void => {
    const snapshot = this.options.store.getSnapshot();
    this.tabs.setUnsaved(hasUnsavedChanges(snapshot));
    if (this.phase === 'waiting' && snapshot.status === 'ready') this.check();
    else if (this.phase === 'tracking') this.schedule();
  };

  /** The saved version is in: is there a draft from before that says something else? */
  private check(): void {
    this.phase = 'checking';
    const run = this.run;
    const { drafts, owner, recordId, store } = this.options;
    // Opening a record is a good moment to forget every draft past its age (the store runs this first).
    void drafts.pruneDrafts();
    void drafts.loadDraft(owner, recordId).then((draft) => {
      if (this.phase !== 'checking' || run !== this.run) return;
      const snapshot = store.getSnapshot();
      // A draft that says what this page shows already is its own edits, kept aside while this lookup ran.
      if (draft && !sameJson(draft.manifest, snapshot.saved) && !sameJson(draft.manifest, snapshot.history.present)) {
        this.written = { manifest: draft.manifest, version: draft.baseVersion, updatedAt: draft.updatedAt };
        this.phase = 'offering';
        this.setOffer({ draft, serverVersion: snapshot.version });
        return;
      }
      // Nothing to offer: a draft that matches the saved version was saved after all.
      if (draft && sameJson(draft.manifest, snapshot.saved)) void this.deleteRecordDraft();
      // With no draft found, another tab may write one first: the first write claims it.
      else this.mustClaim = !draft;
      this.written = null;
      this.track();
    });
  }

  /**
   * From now on the draft follows the store. While a draft is offered nothing is written, so
   * edits made before the user answers cannot overwrite it; they are written once answered.
   */
  private track(): void {
    this.phase = 'tracking';
    this.setOffer(null);
    this.scheduled = null;
    this.schedule();
  }

  private schedule(): void {
    const { history, version } = this.options.store.getSnapshot();
    // Only a change of the manifest or its base restarts the pause: selection, hover and drag
    // previews come often and change nothing that is kept.
    if (this.scheduled?.manifest === history.present && this.scheduled.version === version) return;
    this.scheduled = { manifest: history.present, version };
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    const pending = this.pendingWrite();
    if (pending === 'none') return;
    // All saved: the draft goes at once, not after the pause. A reload right after Save (pagehide
    // cannot wait for IndexedDB) would otherwise keep an older draft and offer it as unsaved work.
    if (pending === 'delete') return this.write();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.write();
    }, this.delayMs);
  }

  /** What the store's state asks of the draft store: keep its unsaved manifest, delete the draft (all saved), or nothing. */
  private pendingWrite(): 'save' | 'delete' | 'none' {
    const snapshot = this.options.store.getSnapshot();
    if (snapshot.status !== 'ready') return 'none';
    // Edits kept aside only (the page was hidden before this tab claimed the draft) are deleted too.
    if (!hasUnsavedChanges(snapshot)) return this.written === null && !this.keptAside ? 'none' : 'delete';
    const present = snapshot.history.present;
    return this.written?.manifest === present && this.written.version === snapshot.version ? 'none' : 'save';
  }

  private write(): void {
    if (this.phase !== 'tracking') return;
    const { recordId, patientId, store } = this.options;
    const pending = this.pendingWrite();
    if (pending === 'delete') {
      // Nothing written (only kept aside): the record's draft is not this tab's to delete.
      const deleted = this.deleteKept(this.written !== null);
      this.written = null;
      if (!this.restoredOffer) return;
      // The restored draft is saved: the next edits kept aside by another page are offered, as after Discard.
      this.restoredOffer = false;
      void deleted.then(() => {
        if (this.phase === 'tracking' && this.pendingWrite() === 'none') this.check();
      });
    } else if (pending === 'save') {
      const snapshot = store.getSnapshot();
      const manifest = snapshot.history.present;
      const updatedAt = this.now();
      this.written = { manifest, version: snapshot.version, updatedAt };
      this.keep({ recordId, patientId, baseVersion: snapshot.version, manifest, updatedAt }, false);
    }
  }

  /**
   * Keeps this tab's edits: as the record's draft, or beside it while another tab's edits are in
   * it (so that neither replaces the other); `atPageEnd` also copies them synchronously.
   */
  private keep(draft: AnnotationDraft, atPageEnd: boolean): void {
    const { drafts, owner, recordId } = this.options;
    // A page going cannot wait for a claim: its edits wait beside a draft another tab may have claimed meanwhile.
    if (this.tabs.draftHeldElsewhere() || this.claiming || (this.mustClaim && atPageEnd)) {
      const kept = drafts.keepAside(owner, draft, this.asideEntry);
      this.keptAside ||= kept;
      // Web Storage refused them: a claim, which replaces nothing, may still keep them if it has time.
      if (!kept && this.mustClaim && !this.claiming && !this.tabs.draftHeldElsewhere()) this.claim(draft);
      return;
    }
    if (this.mustClaim) return this.claim(draft);
    void (atPageEnd ? drafts.saveDraftAtPageEnd(owner, draft) : drafts.saveDraft(owner, draft));
    this.mustClaim = false;
    // The draft holds these edits now: an older copy of them beside it would be offered twice.
    if (this.keptAside) drafts.dropAside(owner, recordId, this.asideEntry);
    this.keptAside = false;
    this.tabs.wrote();
  }

  /** Writes the draft only if no other tab has since (draft-store.ts claimDraft). */
  private claim(draft: AnnotationDraft): void {
    this.claiming = true;
    void this.options.drafts.claimDraft(this.options.owner, draft).then((won) => this.settleClaim(draft, won));
  }

  /**
   * Won: this tab holds the draft (edits made meanwhile, kept aside, reach it with the next write).
   * Lost: another tab does, and this tab's edits are kept aside now, so a tab killed before its page
   * could go (crash, power) loses nothing. Deleted again meanwhile: the draft is claimed again.
   */
  private settleClaim(claimed: AnnotationDraft, won: boolean): void {
    const { drafts, owner, recordId, patientId, store } = this.options;
    const { history, version } = store.getSnapshot();
    const again = this.claimAgain;
    this.claiming = this.claimAgain = false;
    if (won) {
      this.mustClaim = false;
      this.tabs.wrote();
      if (this.keptAside && history.present === claimed.manifest) drafts.dropAside(owner, recordId, this.asideEntry);
      this.keptAside &&= history.present !== claimed.manifest;
    } else {
      if (!again) this.tabs.claimLost();
      // The draft restored here is another tab's now: this tab's save leaves the asides to that one to offer.
      this.restoredOffer = false;
      const draft = { recordId, patientId, baseVersion: version, manifest: history.present, updatedAt: this.now() };
      if (hasUnsavedChanges(store.getSnapshot())) this.keptAside = drafts.keepAside(owner, draft, this.asideEntry) || this.keptAside;
    }
    if (again) return this.keepOwnAgain();
    this.written = { manifest: claimed.manifest, version: claimed.baseVersion, updatedAt: claimed.updatedAt };
    this.scheduled = null;
    if (this.phase === 'tracking') this.schedule();
  }

  /**
   * Deletes this tab's kept edits: those kept beside the draft, and the record's draft (other tabs are
   * told) when this tab wrote it (`wroteDraft`) and the draft does not hold another tab's edits.
   */
  private deleteKept(wroteDraft = true): Promise<void> {
    const { drafts, owner, recordId } = this.options;
    if (this.keptAside) drafts.dropAside(owner, recordId, this.asideEntry);
    this.keptAside = false;
    return wroteDraft && !this.tabs.draftHeldElsewhere() ? this.deleteRecordDraft() : Promise.resolve();
  }

  /**
   * Deletes the record's draft, whoever's edits it holds (the offer of it was answered); other tabs
   * are told once it is gone, so that their claims find it free. This tab's next write claims it too.
   */
  private deleteRecordDraft(): Promise<void> {
    this.mustClaim = true;
    return this.options.drafts.deleteDraft(this.options.owner, this.options.recordId).then(() => this.tabs.deleted());
  }

  private setOffer(offer: DraftOffer | null): void {
    if (offer === this.offer) return;
    this.offer = offer;
    for (const listener of this.listeners) listener();
  }
}
