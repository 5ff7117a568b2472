import {
  AnnotationConflictSchema,
  AnnotationVersionSchema,
  MANIFEST_FILE_NAME,
  ManifestRejectedSchema,
  SavedAnnotationsSchema,
} from '../../../domain/annotation-versions.ts';
import type { ANNOTATION_STATUSES } from '../../../domain/records.ts';
import { ApiError, type ApiClient } from '../../api/api-client.ts';
import { readPatientContext, readRecordContext, writePatientContext, writeRecordContext } from '../../session/context-store.ts';
import type { Confirm } from '../../ui/confirm.tsx';
import type { ToastService } from '../../ui/toast.tsx';
import type { AnnotationStore } from '../manifest/annotation-store.ts';

export type AnnotationStatus = (typeof ANNOTATION_STATUSES)[number];

const TOAST_LIFE_MS = 4000;

/** After a save the record's status in the session contexts says 'saved' (the records page reads it). */
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

export interface SaveDeps {
  api: ApiClient;
  store: AnnotationStore;
  patientId: string;
  recordId: string;
  toast: ToastService;
  confirm: Confirm;
  /** The record's annotation status as the review session holds it ('new' until it is known). */
  status: () => AnnotationStatus;
  /** A version was stored: the session's record now says 'saved'. */
  onSaved: (saved: { savedBy: string; savedAt: string }) => void;
}

async function post(deps: SaveDeps, baseVersion: number) {
  const { api, store, patientId, recordId } = deps;
  const manifest = store.getSnapshot().history.present;
  const form = new FormData();
  form.append('recordId', recordId);
  form.append('patientId', patientId);
  form.append('baseVersion', String(baseVersion));
  form.append('file', new Blob([JSON.stringify(manifest)], { type: 'application/json' }), MANIFEST_FILE_NAME);
  const saved = await api.request({ resource: 'records', method: 'POST', query: { status: deps.status() }, body: form, schema: SavedAnnotationsSchema });
  store.markSaved(manifest, saved.version, saved.savedBy, saved.savedAt);
  deps.onSaved(saved);
  rememberSaved(patientId, recordId, saved.savedBy, saved.savedAt);
  deps.toast.show({ severity: 'success', summary: 'Annotations saved', detail: `Version ${saved.version}.`, life: TOAST_LIFE_MS });
}

/** A newer version exists: load it (ours stays one undo away) or store ours as the version after it; true when ours was stored. */
async function resolveConflict(deps: SaveDeps, error: ApiError): Promise<boolean> {
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
    return true;
  }
  const newer = await deps.api.get(AnnotationVersionSchema, `records/${encodeURIComponent(deps.recordId)}/annotations`);
  deps.store.loadOver(newer);
  deps.toast.show({ severity: 'info', summary: `Version ${newer.version} loaded`, detail: 'Press Ctrl+Z to bring your changes back.', life: TOAST_LIFE_MS });
  return false;
}

/**
 * Save: the next version of the record's annotations, with the conflict question when another was
 * saved meanwhile. True when the edits were stored (leaving after Save waits for this).
 */
export async function saveAnnotations(deps: SaveDeps): Promise<boolean> {
  const { store, toast } = deps;
  const snapshot = store.getSnapshot();
  if (snapshot.status !== 'ready' || snapshot.saving) return false;
  // Spec: annotations are uploaded only while both a record and a patient are in context.
  if (!readPatientContext(deps.patientId) || !readRecordContext(deps.patientId, deps.recordId)) {
    toast.show({ severity: 'error', summary: 'Not saved', detail: 'Open this record from its patient’s records to save its annotations.' });
    return false;
  }
  store.setSaving(true);
  try {
    try {
      await post(deps, snapshot.version);
      return true;
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) return await resolveConflict(deps, error);
      throw error;
    }
  } catch (error) {
    const rejected = error instanceof ApiError ? ManifestRejectedSchema.safeParse(error.details) : null;
    const detail = rejected?.success ? `${rejected.data.message} ${rejected.data.problems.slice(0, 3).join('; ')}` : error instanceof Error ? error.message : String(error);
    toast.show({ severity: 'error', summary: 'Annotations not saved', detail });
    return false;
  } finally {
    store.setSaving(false);
  }
}

/** Loads the latest saved version into the store; returns the abort (leaving, or a retry). */
export function loadAnnotations(api: ApiClient, store: AnnotationStore, recordId: string): () => void {
  const controller = new AbortController();
  api
    .get(AnnotationVersionSchema, `records/${encodeURIComponent(recordId)}/annotations`, { signal: controller.signal })
    .then((loaded) => store.load(loaded))
    .catch((error: unknown) => {
      if (!controller.signal.aborted) store.fail(error instanceof Error ? error.message : 'The annotations could not be loaded.');
    });
  return () => controller.abort();
}
