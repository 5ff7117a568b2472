import { useEffect, useRef, useState } from 'react';
import type { ImportRejected, SkippedFile } from '../../../domain/imports.ts';
import type { ToastService } from '../../ui/toast.tsx';
import type { ChosenFile } from './chosen-files.tsx';
import type { FoundFile } from './folder-entries.ts';
import type { PatientIdentity } from './identity-mismatch.tsx';
import type { ImportsApi } from './imports-api.ts';
import { fileIdentity } from './upload-format.ts';
import { NETWORK_ERROR_MESSAGE, type UploadFields, type UploadHandle, type UploadProgress } from './upload-request.ts';
import type { RecentImports } from './use-recent-imports.ts';

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'sending'; progress: UploadProgress | null }
  /** A 4xx: a file was refused and nothing was kept; the files stay listed to fix and send again. */
  | { phase: 'rejected'; rejection: ImportRejected }
  /** 422 patient_id_required: the user chooses the patient, then the same files go again. */
  | { phase: 'needs-patient'; files: string[] }
  /** 409 patient_identity_mismatch: the same files go again only once the user confirms. */
  | { phase: 'identity-mismatch'; identity: PatientIdentity }
  /** 409 not_ivus: an ultrasound loop that is not an IVUS pullback; kept only once the user confirms it is to view only. */
  | { phase: 'not-ivus'; rejection: ImportRejected }
  /** The server was not reached or answered something else: send the same files again. */
  | { phase: 'failed'; title: string; message: string };

/** The last upload's answer: its imports (followed in the recent imports) and the files it skipped. */
export interface UploadBatch {
  importIds: string[];
  skipped: SkippedFile[];
}

interface SentUpload {
  files: ChosenFile[];
  fields: UploadFields;
}

export const plural = (count: number, one: string, many = `${one}s`) => `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;

/**
 * The upload's state: the chosen files, one request at a time, and what its answer asks of the
 * user (a patient for files without a Patient ID, a confirmation for a patient whose name or birth
 * date differs), each question answered by sending the same files again with the form fields.
 */
export function useUpload({
  imports,
  recent,
  toast,
  maxFileBytes,
  onBatch,
}: {
  imports: ImportsApi;
  recent: RecentImports;
  toast: ToastService;
  maxFileBytes: number;
  /** The page shows the last batch, of an upload or of a pull from a PACS. */
  onBatch: (batch: UploadBatch) => void;
}) {
  const [chosen, setChosen] = useState<ChosenFile[]>([]);
  const [upload, setUpload] = useState<UploadState>({ phase: 'idle' });
  /** The files (and patient) of each import started here, to send again if its processing fails. */
  const [sentFiles, setSentFiles] = useState<Record<string, SentUpload>>({});
  const handle = useRef<UploadHandle | null>(null);
  /** The form fields of the request last sent: a confirmation keeps the patient chosen before it. */
  const lastFields = useRef<UploadFields>({});

  // Leaving the page stops an upload still sending (the server keeps nothing of it); an import
  // already accepted goes on on the server and is listed when the page opens again.
  useEffect(() => () => handle.current?.abort(), []);

  const rejection = upload.phase === 'rejected' ? upload.rejection : null;
  const rejectedFileListed = rejection !== null && chosen.some(({ file }) => file.name === rejection.fileName);
  /** Whether the current answer was about the whole set of files, which a change of files makes stale. */
  const aboutAllFiles = upload.phase === 'failed' || upload.phase === 'needs-patient' || (upload.phase === 'rejected' && !rejectedFileListed);

  const addFiles = (found: readonly FoundFile[]) => {
    setChosen((current) => {
      const keys = new Set(current.map(({ key }) => key));
      const added: ChosenFile[] = [];
      for (const { file, path } of found) {
        const key = fileIdentity(file, path);
        if (keys.has(key)) continue;
        keys.add(key);
        added.push({ key, file, path });
      }
      return [...current, ...added];
    });
    if (aboutAllFiles) setUpload({ phase: 'idle' });
  };

  const removeFile = (key: string) => {
    const removed = chosen.find((entry) => entry.key === key);
    setChosen((current) => current.filter((entry) => entry.key !== key));
    if (aboutAllFiles || (upload.phase === 'rejected' && removed?.file.name === rejection?.fileName)) setUpload({ phase: 'idle' });
  };

  const clear = () => {
    setChosen([]);
    setUpload({ phase: 'idle' });
  };

  const send = (files: ChosenFile[], fields: UploadFields = {}) => {
    if (files.length === 0 || files.some(({ file }) => file.size > maxFileBytes) || handle.current) return;
    setUpload({ phase: 'sending', progress: null });
    lastFields.current = fields;
    const current = imports.upload(
      files.map(({ file }) => file),
      fields,
      (progress) => setUpload((state) => (state.phase === 'sending' ? { phase: 'sending', progress } : state)),
    );
    handle.current = current;
    void current.done.then((outcome) => {
      if (handle.current !== current) return;
      handle.current = null;
      switch (outcome.kind) {
        case 'accepted': {
          const { imports: started, skipped } = outcome.batch;
          for (const summary of started) recent.add(summary);
          onBatch({ importIds: started.map(({ importId }) => importId), skipped });
          const retryable = started
            .map((summary) => [summary.importId, { files: files.filter(({ file }) => summary.fileNames.includes(file.name)), fields }] as const)
            .filter(([, sent]) => sent.files.length > 0);
          setSentFiles((known) => ({ ...known, ...Object.fromEntries(retryable) }));
          setChosen((listed) => listed.filter((entry) => !files.includes(entry)));
          setUpload({ phase: 'idle' });
          toast.show({
            severity: skipped.length > 0 ? 'warning' : 'success',
            summary: `${plural(files.length, 'file')} uploaded`,
            detail: `${plural(started.length, 'record')} being imported${skipped.length > 0 ? `; ${plural(skipped.length, 'file')} not imported (see This upload)` : ''}.`,
            life: 5000,
          });
          break;
        }
        case 'rejected': {
          const { rejection: refused } = outcome;
          if (refused.error === 'patient_id_required') {
            setUpload({ phase: 'needs-patient', files: refused.filesWithoutPatientId ?? (refused.fileName ? [refused.fileName] : []) });
          } else if (refused.error === 'patient_identity_mismatch' && refused.patientIdentity) {
            setUpload({ phase: 'identity-mismatch', identity: refused.patientIdentity });
          } else if (refused.error === 'not_ivus') {
            setUpload({ phase: 'not-ivus', rejection: refused });
          } else {
            setUpload({ phase: 'rejected', rejection: refused });
          }
          break;
        }
        case 'failed':
          setUpload({ phase: 'failed', title: 'The upload failed', message: outcome.message });
          // The list call meets the same 401 and lets the app end the session the usual way.
          if (outcome.status === 401) recent.reload();
          break;
        case 'network':
          setUpload({ phase: 'failed', title: 'The upload did not reach the server', message: NETWORK_ERROR_MESSAGE });
          break;
        case 'aborted':
          setUpload({ phase: 'idle' });
          break;
      }
    });
  };

  const retryImport = (importId: string) => {
    const sent = sentFiles[importId];
    if (!sent || handle.current) return;
    setSentFiles(({ [importId]: _, ...others }) => others);
    setChosen(sent.files);
    send(sent.files, sent.fields);
  };

  return {
    chosen,
    upload,
    rejection,
    rejectedFileListed,
    retryable: new Set(Object.keys(sentFiles)),
    addFiles,
    removeFile,
    clear,
    send: () => send(chosen, {}),
    retryLast: () => send(chosen, lastFields.current),
    retryImport,
    /** The patient chosen for files without a Patient ID. */
    choosePatient: (fields: UploadFields) => send(chosen, fields),
    /** The user confirmed the patient whose name or birth date differs. */
    confirmIdentity: () => send(chosen, { ...lastFields.current, confirmPatientIdentity: true }),
    /** The user confirmed importing a loop that is not IVUS, as other ultrasound, to view only. */
    confirmOtherUltrasound: () => send(chosen, { ...lastFields.current, confirmOtherUltrasound: true }),
    cancelQuestion: () => setUpload({ phase: 'idle' }),
    abort: () => handle.current?.abort(),
  };
}
