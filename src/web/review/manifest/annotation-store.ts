import { withFreshIdentity } from '../../../domain/annotations/drag.ts';
import { addAnnotation, findAnnotation, removeAnnotation, updateAnnotation } from '../../../domain/annotations/edits.ts';
import { canRedo, canUndo, createHistory, record, redo, undo, type History } from '../../../domain/annotations/history.ts';
import { emptyManifest, type AnnotationManifest, type TypedAnnotation } from '../../../domain/annotations/manifest.ts';

/**
 * The review's annotation store (spec section 3): the manifest with its undo history, the
 * selected annotation, a transient preview while something is dragged, and what was last saved,
 * so the Save button knows whether there are unsaved changes.
 */
export interface AnnotationSnapshot {
  readonly status: 'loading' | 'ready' | 'error';
  readonly error: string | null;
  /** What is shown: the preview while dragging, the history's present otherwise. */
  readonly manifest: AnnotationManifest;
  readonly history: History<AnnotationManifest>;
  /** The manifest as saved (or loaded): unsaved changes are anything else. */
  readonly saved: AnnotationManifest;
  /** The saved version this work is based on (0 = none yet). */
  readonly version: number;
  readonly savedBy: string | null;
  readonly savedAt: string | null;
  readonly selectedId: string | null;
  /** The text note whose card should take the keyboard (just created). */
  readonly focusTextId: string | null;
  readonly saving: boolean;
  /** The tool statechart's state (idle, drawing, moving, resizing, selecting), for the developer overlay. */
  readonly interaction: string;
}

export interface LoadedVersion {
  version: number;
  manifest: AnnotationManifest;
  savedBy: string | null;
  savedAt: string | null;
}

const INITIAL: AnnotationSnapshot = {
  status: 'loading',
  error: null,
  manifest: emptyManifest(),
  history: createHistory(emptyManifest()),
  saved: emptyManifest(),
  version: 0,
  savedBy: null,
  savedAt: null,
  selectedId: null,
  focusTextId: null,
  saving: false,
  interaction: 'idle',
};

export function hasUnsavedChanges(snapshot: AnnotationSnapshot): boolean {
  return snapshot.status === 'ready' && snapshot.history.present !== snapshot.saved;
}

export class AnnotationStore {
  private snapshot: AnnotationSnapshot = INITIAL;
  private readonly listeners = new Set<() => void>();

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getSnapshot = (): AnnotationSnapshot => this.snapshot;

  private update(change: Partial<AnnotationSnapshot>): void {
    const next = { ...this.snapshot, ...change };
    // A selection that no longer exists (undone, deleted) is dropped.
    if (next.selectedId && !findAnnotation(next.manifest, next.selectedId)) next.selectedId = null;
    this.snapshot = next;
    for (const listener of this.listeners) listener();
  }

  private present(history: History<AnnotationManifest>): Partial<AnnotationSnapshot> {
    return { history, manifest: history.present };
  }

  /** Replaces everything with a version from the server (on open, or after choosing theirs in a conflict). */
  load({ version, manifest, savedBy, savedAt }: LoadedVersion): void {
    this.update({ ...INITIAL, status: 'ready', ...this.present(createHistory(manifest)), saved: manifest, version, savedBy, savedAt });
  }

  /**
   * Takes a newer saved version after a conflict as one undoable step: the user's own unsaved
   * manifest stays one undo away, so choosing theirs loses nothing.
   */
  loadOver({ version, manifest, savedBy, savedAt }: LoadedVersion): void {
    this.update({ ...this.present(record(this.snapshot.history, manifest)), saved: manifest, version, savedBy, savedAt, saving: false });
  }

  /**
   * Brings back a kept draft as unsaved edits, one undoable step over what was loaded. The work
   * is based on `baseVersion` from then on, so saving it over a newer version meets the conflict
   * question instead of silently replacing that version.
   */
  restoreDraft(manifest: AnnotationManifest, baseVersion: number): void {
    if (this.snapshot.status !== 'ready') return;
    this.update({ ...this.present(record(this.snapshot.history, manifest)), version: baseVersion, selectedId: null });
  }

  /** Asked again after a failed load: loading until it answers (the figures keep waiting meanwhile). */
  retryLoad(): void {
    if (this.snapshot.status === 'error') this.update({ status: 'loading', error: null });
  }

  fail(message: string): void {
    this.update({ status: 'error', error: message });
  }

  /** One undoable change; the preview (if any) ends. */
  commit(next: AnnotationManifest): void {
    if (this.snapshot.status !== 'ready') return;
    this.update(this.present(record(this.snapshot.history, next)));
  }

  /** Shows a change while a drag is under way, without an undo step for every pointer move. */
  preview(annotation: TypedAnnotation): void {
    if (this.snapshot.status !== 'ready') return;
    this.update({ manifest: updateAnnotation(this.snapshot.history.present, annotation) });
  }

  cancelPreview(): void {
    this.update({ manifest: this.snapshot.history.present });
  }

  /** Adds a drawn annotation; its id is re-checked here, since undo or redo may have reused it while it was drawn. */
  add(drawn: TypedAnnotation, options: { focusText?: boolean } = {}): void {
    if (this.snapshot.status !== 'ready') return;
    const annotation = withFreshIdentity(this.snapshot.history.present, drawn);
    this.commit(addAnnotation(this.snapshot.history.present, annotation));
    this.update({ selectedId: annotation.id, focusTextId: options.focusText ? annotation.id : null });
  }

  replace(annotation: TypedAnnotation): void {
    if (this.snapshot.status !== 'ready') return;
    this.commit(updateAnnotation(this.snapshot.history.present, annotation));
  }

  remove(id: string): void {
    if (this.snapshot.status !== 'ready') return;
    this.commit(removeAnnotation(this.snapshot.history.present, id));
  }

  select(id: string | null): void {
    if (id !== this.snapshot.selectedId) this.update({ selectedId: id });
  }

  textFocused(): void {
    if (this.snapshot.focusTextId) this.update({ focusTextId: null });
  }

  canUndo(): boolean {
    return canUndo(this.snapshot.history);
  }

  canRedo(): boolean {
    return canRedo(this.snapshot.history);
  }

  undo(): void {
    if (this.canUndo()) this.update(this.present(undo(this.snapshot.history)));
  }

  redo(): void {
    if (this.canRedo()) this.update(this.present(redo(this.snapshot.history)));
  }

  setInteraction(interaction: string): void {
    if (interaction !== this.snapshot.interaction) this.update({ interaction });
  }

  setSaving(saving: boolean): void {
    this.update({ saving });
  }

  /** The server stored `manifest` as `version`: it is the new baseline (later edits stay unsaved). */
  markSaved(manifest: AnnotationManifest, version: number, savedBy: string, savedAt: string): void {
    this.update({ saved: manifest, version, savedBy, savedAt, saving: false });
  }
}
