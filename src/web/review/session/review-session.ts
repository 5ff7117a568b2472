import type { AnnotationState, ImagingKind } from '../../../domain/records.ts';
import type { ApiClient } from '../../api/api-client.ts';
import type { Confirm } from '../../ui/confirm.tsx';
import type { ToastService } from '../../ui/toast.tsx';
import { loadAnnotations, saveAnnotations, type AnnotationStatus } from '../annotations/annotation-save.ts';
import type { AnnotationSession } from '../annotations/annotation-session.tsx';
import { AnnotationStore, hasUnsavedChanges } from '../manifest/annotation-store.ts';
import type { DraftSync } from '../annotations/draft-sync.ts';
import { decideLeave, guardUnsavedLeave, LeaveQuestion } from '../annotations/leave-guard.ts';
import { ImageStore } from '../frames/image-store.ts';
import { SliceCursor } from '../frames/slice-cursor.ts';
import { createCursorPlayback, type CursorPlayback } from '../playback/cursor-playback.ts';
import { createActiveToolStore, type ActiveToolStore } from '../tools/active-tool.tsx';
import { createPanelDisplays, type PanelDisplays } from '../view/brightness-contrast.ts';
import { reviewScope, type ReviewScope } from './review-scope.ts';

export interface ReviewSessionOptions {
  patientId: string;
  recordId: string;
  api: ApiClient;
  toast: ToastService;
  confirm: Confirm;
  /** Seams for tests: an image store already holding frames, a tool already chosen. */
  images?: ImageStore;
  tools?: ActiveToolStore;
}

/** What the session needs of the record: where its annotations stand, and what it is (IVUS or not). */
export interface SessionRecord {
  readonly annotation?: AnnotationState | null;
  readonly imagingKind?: ImagingKind | undefined;
}

/**
 * Everything one open record needs while the clinician reviews it, created once by the route and
 * disposed when the clinician leaves: the record's annotation status, the frame store, the one
 * slice cursor (the only writer of the slice), playback built on that cursor, the active tool,
 * and the annotations with their save. Each part used to be created at its own level (router,
 * layout, page) and wired together afterwards; here they are made together, so they cannot
 * belong to different records, and one `dispose` ends them all.
 *
 * `open()` starts what talks to the outside (the annotations' request, the leave questions, the
 * tab's visibility); `dispose()` stops it, stops playback and releases the frames. A disposed
 * session may be opened again (React's strict mode runs effects twice).
 */
export class ReviewSession {
  readonly patientId: string;
  readonly recordId: string;
  readonly images: ImageStore;
  readonly cursor: SliceCursor;
  readonly playback: CursorPlayback;
  readonly tools: ActiveToolStore;
  readonly annotationStore = new AnnotationStore();
  /** The annotations as the toolbar's Save and the page use them. */
  readonly annotations: AnnotationSession;
  /** The Save / Discard / Stay question asked before leaving with unsaved edits (the provider shows it). */
  readonly leaveQuestion = new LeaveQuestion();
  /** Each panel's brightness and contrast (the L-mode's also drives the strip above the plot); another record starts at default. */
  readonly displays: PanelDisplays = createPanelDisplays();

  private record: SessionRecord | null = null;
  private currentScope: ReviewScope = reviewScope(null);
  private readonly scopeListeners = new Set<() => void>();
  /** Saved during this visit: the record says 'saved' whatever an older copy of it says. */
  private savedHere = false;
  private cancelAnnotationLoad: (() => void) | null = null;
  private closeOutside: (() => void) | null = null;
  /** The draft kept of the edits in this browser, once the signed-in user is known (draft-prompt.tsx). */
  private drafts: DraftSync | null = null;

  private readonly options: ReviewSessionOptions;

  constructor(options: ReviewSessionOptions) {
    this.options = options;
    this.patientId = options.patientId;
    this.recordId = options.recordId;
    this.images = options.images ?? new ImageStore();
    this.cursor = new SliceCursor(this.images);
    this.playback = createCursorPlayback(this.cursor);
    this.tools = options.tools ?? createActiveToolStore();
    this.annotations = {
      store: this.annotationStore,
      patientId: this.patientId,
      recordId: this.recordId,
      save: this.save,
      reload: this.reloadAnnotations,
      confirmLeave: this.confirmLeave,
    };
  }

  /** The record as the page loaded it (its annotation status is what Save sends). */
  setRecord(record: SessionRecord | null): void {
    this.record = record;
    const scope = reviewScope(record);
    if (scope === this.currentScope) return;
    this.currentScope = scope;
    // A tool the record does not offer (the contour tool on other ultrasound) is put down.
    const active = this.tools.get();
    if (active && !scope.tools.includes(active)) this.tools.set(null);
    this.scopeListeners.forEach((listener) => listener());
  }

  /** What the review offers for this record (the toolbar's tools, the analysis); IVUS until the record is known. */
  scope = (): ReviewScope => this.currentScope;

  subscribeScope = (listener: () => void): (() => void) => {
    this.scopeListeners.add(listener);
    return () => this.scopeListeners.delete(listener);
  };

  /** The record's annotation status: 'new' until the record is known and has been saved. */
  annotationStatus = (): AnnotationStatus => (this.savedHere ? 'saved' : (this.record?.annotation?.status ?? 'new'));

  save = (): Promise<boolean> =>
    saveAnnotations({
      api: this.options.api,
      store: this.annotationStore,
      patientId: this.patientId,
      recordId: this.recordId,
      toast: this.options.toast,
      confirm: this.options.confirm,
      status: this.annotationStatus,
      onSaved: () => {
        this.savedHere = true;
      },
    });

  /** The draft keeping of this record's edits; returns its detach. */
  attachDrafts(drafts: DraftSync): () => void {
    this.drafts = drafts;
    return () => {
      if (this.drafts === drafts) this.drafts = null;
    };
  }

  hasUnsavedEdits = (): boolean => hasUnsavedChanges(this.annotationStore.getSnapshot());

  /** Discard when leaving: the edits go back to the saved version, and their draft is deleted. */
  discardEdits = async (): Promise<void> => {
    const { saved, version, savedBy, savedAt } = this.annotationStore.getSnapshot();
    this.annotationStore.load({ manifest: saved, version, savedBy, savedAt });
    await this.drafts?.forget();
  };

  /** Whether the clinician may leave now: asks Save / Discard / Stay when there are unsaved edits. */
  confirmLeave = (): Promise<boolean> =>
    decideLeave({ unsaved: this.hasUnsavedEdits, ask: this.leaveQuestion.ask, save: this.save, discard: this.discardEdits });

  /** Asks for the latest saved annotations again (after a failed load). */
  reloadAnnotations = (): void => {
    this.cancelAnnotationLoad?.();
    this.annotationStore.retryLoad();
    this.cancelAnnotationLoad = loadAnnotations(this.options.api, this.annotationStore, this.recordId);
  };

  get isOpen(): boolean {
    return this.closeOutside !== null;
  }

  /** Starts the session's work with the outside world; returns `dispose`. */
  open(): () => void {
    if (this.closeOutside) return this.dispose;
    this.reloadAnnotations();
    const closeLeaveGuard = guardUnsavedLeave(this.hasUnsavedEdits, this.confirmLeave);
    const closePlayback = this.playback.open();
    this.closeOutside = () => {
      closeLeaveGuard();
      // A question left open by a leave that happened anyway (an ended session) is answered Stay.
      this.leaveQuestion.answer('stay');
      closePlayback();
    };
    return this.dispose;
  }

  /** Leaving the record: playback stops, the frames are released, the annotations' request is dropped. */
  dispose = (): void => {
    this.cancelAnnotationLoad?.();
    this.cancelAnnotationLoad = null;
    this.closeOutside?.();
    this.closeOutside = null;
    // Spec: leaving the review frees its frames (slice back to 1); a worker download may go on for the next visit.
    this.images.reset();
  };
}
