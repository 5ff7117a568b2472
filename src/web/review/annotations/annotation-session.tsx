import { createContext, use, useCallback, useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import {
  AnnotationConflictSchema,
  AnnotationVersionSchema,
  MANIFEST_FILE_NAME,
  ManifestRejectedSchema,
  SavedAnnotationsSchema,
} from '../../../domain/annotation-versions.ts';
import { ApiError, type ApiClient } from '../../api/api-client.ts';
import { useApi } from '../../api/api-context.tsx';
import { readPatientContext, readRecordContext, writePatientContext, writeRecordContext } from '../../session/context-store.ts';
import { useConfirm, type Confirm } from '../../ui/confirm.tsx';
import { useToast, type ToastService } from '../../ui/toast.tsx';
import { AnnotationStore, hasUnsavedChanges } from './annotation-store.ts';
import { DraftPrompt, useAnnotationDraft } from './draft-prompt.tsx';

export interface AnnotationSession {
  store: AnnotationStore;
  patientId: string;
  recordId: string;
  save: () => Promise<void>;
  reload: () => void;
}

const AnnotationSessionContext = createContext<AnnotationSession | null>(null);

const TOAST_LIFE_MS = 4000;

const LEAVE_QUESTION = {
  title: 'Leave without saving?',
  // Leaving keeps a draft in this browser (draft-store.ts), offered again when the record is opened.
  message: 'Your annotation changes on this record are not saved. This browser keeps them as a draft that you can restore when you open the record again.',
  acceptLabel: 'Leave without saving',
  rejectLabel: 'Stay',
  acceptPalette: 'red',
};

/** After a save the record's status in the session contexts says 'saved' (the records page and the next save read it). */
function rememberSaved(patientId: string, recordId: string, savedBy: string, savedAt: string): void {
  const annotation = { status: 'saved' as const, savedBy, savedAt };
  const patient = readPatientContext(patientId);
  if (patient) {
    writePatientContext({
      patient: { ...patient.patient, records: patient.patient.records.map((r) => (r.recordId === recordId ? { ...r, annotation } : r)) },
    });
  }
  const record = readRecordContext(patientId, recordId);
  if (record) writeRecordContext({ ...record, record: { ...record.record, annotation } });
}

interface SaveDeps {
  api: ApiClient;
  store: AnnotationStore;
  patientId: string;
  recordId: string;
  toast: ToastService;
  confirm: Confirm;
}

async function post(deps: SaveDeps, baseVersion: number) {
  const { api, store, patientId, recordId } = deps;
  const manifest = store.getSnapshot().history.present;
  const status = readRecordContext(patientId, recordId)?.record.annotation?.status ?? 'new';
  const form = new FormData();
  form.append('recordId', recordId);
  form.append('patientId', patientId);
  form.append('baseVersion', String(baseVersion));
  form.append('file', new Blob([JSON.stringify(manifest)], { type: 'application/json' }), MANIFEST_FILE_NAME);
  const saved = await api.request({ resource: 'records', method: 'POST', query: { status }, body: form, schema: SavedAnnotationsSchema });
  store.markSaved(manifest, saved.version, saved.savedBy, saved.savedAt);
  rememberSaved(patientId, recordId, saved.savedBy, saved.savedAt);
  deps.toast.show({ severity: 'success', summary: 'Annotations saved', detail: `Version ${saved.version}.`, life: TOAST_LIFE_MS });
}

/** A newer version exists: load it (ours stays one undo away) or store ours as the version after it. */
async function resolveConflict(deps: SaveDeps, error: ApiError): Promise<void> {
  const conflict = AnnotationConflictSchema.safeParse(error.details);
  const latest = conflict.success ? conflict.data.latestVersion : null;
  if (latest === null) throw error;
  const who = conflict.success && conflict.data.savedBy ? ` by ${conflict.data.savedBy}` : '';
  const keepMine = await deps.confirm({
    title: 'These annotations were changed meanwhile',
    message: `Version ${latest} was saved${who} after you opened this record. Keep yours as the next version, or load version ${latest}? Loading it keeps your changes one undo (Ctrl+Z) away.`,
    acceptLabel: 'Keep mine as the next version',
    rejectLabel: `Load version ${latest}`,
  });
  if (keepMine) {
    await post(deps, latest);
    return;
  }
  const newer = await deps.api.get(AnnotationVersionSchema, `records/${encodeURIComponent(deps.recordId)}/annotations`);
  deps.store.loadOver(newer);
  deps.toast.show({ severity: 'info', summary: `Version ${newer.version} loaded`, detail: 'Press Ctrl+Z to bring your changes back.', life: TOAST_LIFE_MS });
}

async function saveAnnotations(deps: SaveDeps): Promise<void> {
  const { store, toast } = deps;
  const snapshot = store.getSnapshot();
  if (snapshot.status !== 'ready' || snapshot.saving) return;
  // Spec: annotations are uploaded only while both a record and a patient are in context.
  if (!readPatientContext(deps.patientId) || !readRecordContext(deps.patientId, deps.recordId)) {
    toast.show({ severity: 'error', summary: 'Not saved', detail: 'Open this record from its patient’s records to save its annotations.' });
    return;
  }
  store.setSaving(true);
  try {
    try {
      await post(deps, snapshot.version);
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) await resolveConflict(deps, error);
      else throw error;
    }
  } catch (error) {
    const rejected = error instanceof ApiError ? ManifestRejectedSchema.safeParse(error.details) : null;
    const detail = rejected?.success ? `${rejected.data.message} ${rejected.data.problems.slice(0, 3).join('; ')}` : error instanceof Error ? error.message : String(error);
    toast.show({ severity: 'error', summary: 'Annotations not saved', detail });
  } finally {
    store.setSaving(false);
  }
}

/** One annotation session per opened record: loads the latest saved version and saves new ones. */
export function AnnotationSessionProvider({ patientId, recordId, children }: { patientId: string; recordId: string; children: ReactNode }) {
  const api = useApi();
  const toast = useToast();
  const confirm = useConfirm();
  const [store] = useState(() => new AnnotationStore());
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    api
      .get(AnnotationVersionSchema, `records/${encodeURIComponent(recordId)}/annotations`, { signal: controller.signal })
      .then((loaded) => store.load(loaded))
      .catch((error: unknown) => {
        if (!controller.signal.aborted) store.fail(error instanceof Error ? error.message : 'The annotations could not be loaded.');
      });
    return () => controller.abort();
  }, [api, store, recordId, attempt]);

  // Closing the tab with unsaved changes asks first (the browser words the question).
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (hasUnsavedChanges(store.getSnapshot())) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [store]);

  // The browser's Back (and the toolbar's, which uses it) with unsaved changes: stay, and ask.
  useEffect(() => {
    const here = window.location.href;
    let leaving = false;
    const onPopState = () => {
      if (leaving || !hasUnsavedChanges(store.getSnapshot())) return;
      // A history step cannot be cancelled: put the review back at once (same task, so nothing unmounts).
      window.history.pushState(window.history.state, '', here);
      void confirm(LEAVE_QUESTION).then((leave) => {
        if (!leave) return;
        leaving = true;
        window.history.back();
      });
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [store, confirm]);

  const save = useCallback(() => saveAnnotations({ api, store, patientId, recordId, toast, confirm }), [api, store, patientId, recordId, toast, confirm]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  const session = useMemo(() => ({ store, patientId, recordId, save, reload }), [store, patientId, recordId, save, reload]);
  // Unsaved edits are kept as they are made, so an ended session (which skips the question above) loses nothing.
  const draft = useAnnotationDraft(store, { patientId, recordId });
  return (
    <AnnotationSessionContext value={session}>
      {/* Before the review in the tab order: one Tab reaches the offer. */}
      {draft ? <DraftPrompt sync={draft} /> : null}
      {children}
    </AnnotationSessionContext>
  );
}

/** The open record's annotation session, or null outside a review (the toolbar asks on every screen). */
export function useAnnotationSession(): AnnotationSession | null {
  return use(AnnotationSessionContext);
}

const NO_STORE = new AnnotationStore();

/** Whether the Save button has something to do, and whether it is busy. */
export function useSaveState(session: AnnotationSession | null): { ready: boolean; dirty: boolean; saving: boolean } {
  const store = session?.store ?? NO_STORE;
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  return { ready: session !== null && snapshot.status === 'ready', dirty: hasUnsavedChanges(snapshot), saving: snapshot.saving };
}

/**
 * Asks before leaving a review with unsaved annotations; answers true at once when there is
 * nothing to lose (or no review open).
 */
export function useConfirmLeave(): () => Promise<boolean> {
  const session = useAnnotationSession();
  const confirm = useConfirm();
  return useCallback(async () => {
    if (!session || !hasUnsavedChanges(session.store.getSnapshot())) return true;
    return confirm(LEAVE_QUESTION);
  }, [session, confirm]);
}
