import { useRef, useState } from 'react';
import type { ImportRejected } from '../../../domain/imports.ts';
import type { PacsConnection, PacsSeries, PacsStudy } from '../../../domain/pacs.ts';
import type { ToastService } from '../../ui/toast.tsx';
import type { PatientIdentity } from './identity-mismatch.tsx';
import type { PacsBrowseApi, PullProgress } from './pacs-api.ts';
import type { UploadFields } from './upload-request.ts';
import type { RecentImports } from './use-recent-imports.ts';
import { plural, type UploadBatch } from './use-upload.ts';

export type PullState =
  | { phase: 'idle' }
  /**
   * The server retrieves the series from the PACS (`progress`: how far, null until it first says),
   * then checks them as it checks an upload.
   */
  | { phase: 'pulling'; order: PullOrder; progress: PullProgress | null }
  /** A 4xx of the import: nothing was kept. */
  | { phase: 'rejected'; rejection: ImportRejected }
  /** 422 patient_id_required: the user chooses the patient, then the same series are pulled again. */
  | { phase: 'needs-patient'; series: string[] }
  /** 409 patient_identity_mismatch: pulled again only once the user confirms. */
  | { phase: 'identity-mismatch'; identity: PatientIdentity }
  /** The PACS's problem, or the server was not reached: the same pull can be tried again. */
  | { phase: 'failed'; title: string; message: string };

/** What is pulled: series of one study from one connection. */
export interface PullOrder {
  connection: PacsConnection;
  study: PacsStudy;
  series: PacsSeries[];
}

/** 'IVUS series 3: LAD pullback', as the user chose it in the list. */
export function seriesLabel(series: PacsSeries): string {
  const number = series.seriesNumber === null ? '' : ` ${series.seriesNumber}`;
  return `${series.modality} series${number}${series.description ? `: ${series.description}` : ''}`;
}

export const NETWORK_PULL_MESSAGE = 'The request did not reach the server. Check the connection and try again.';

/**
 * A pull from a PACS, answered as an upload is: its imports join the recent imports, and a
 * question (the patient of series without a Patient ID, a confirmation of a patient whose name or
 * birth date differs) is answered by pulling the same series again with the upload's fields.
 */
export function usePull({ pacs, recent, toast, onBatch }: { pacs: PacsBrowseApi; recent: RecentImports; toast: ToastService; onBatch: (batch: UploadBatch) => void }) {
  const [state, setState] = useState<PullState>({ phase: 'idle' });
  /** Pulls accepted so far: the series list loads again after each (its series now show as imported). */
  const [accepted, setAccepted] = useState(0);
  /** The series (and patient) of each import started here, to pull again if its processing fails. */
  const [sentPulls, setSentPulls] = useState<Record<string, { order: PullOrder; fields: UploadFields }>>({});
  const busy = useRef(false);
  const last = useRef<{ order: PullOrder; fields: UploadFields } | null>(null);

  /** Answers true when the series are being imported. */
  const send = async (order: PullOrder, fields: UploadFields = {}): Promise<boolean> => {
    if (busy.current || order.series.length === 0) return false;
    busy.current = true;
    last.current = { order, fields };
    setState({ phase: 'pulling', order, progress: null });
    const outcome = await pacs.pull(
      order.connection.id,
      {
        studyInstanceUid: order.study.studyInstanceUid,
        seriesInstanceUids: order.series.map(({ seriesInstanceUid }) => seriesInstanceUid),
        ...fields,
      },
      (progress) => setState((current) => (current.phase === 'pulling' && current.order === order ? { ...current, progress } : current)),
    );
    busy.current = false;
    switch (outcome.kind) {
      case 'accepted': {
        const { imports: started, skipped } = outcome.batch;
        for (const summary of started) recent.add(summary);
        onBatch({ importIds: started.map(({ importId }) => importId), skipped });
        setSentPulls((known) => ({ ...known, ...Object.fromEntries(started.map(({ importId }) => [importId, { order, fields }])) }));
        setState({ phase: 'idle' });
        setAccepted((count) => count + 1);
        toast.show({
          severity: skipped.length > 0 ? 'warning' : 'success',
          summary: `${plural(order.series.length, 'series', 'series')} retrieved from ${order.connection.name}`,
          detail: `${plural(started.length, 'record')} being imported${skipped.length > 0 ? `; ${plural(skipped.length, 'file')} not imported (see This import)` : ''}.`,
          life: 5000,
        });
        return true;
      }
      case 'rejected': {
        const { rejection } = outcome;
        if (rejection.error === 'patient_id_required') setState({ phase: 'needs-patient', series: order.series.map(seriesLabel) });
        else if (rejection.error === 'patient_identity_mismatch' && rejection.patientIdentity) setState({ phase: 'identity-mismatch', identity: rejection.patientIdentity });
        else setState({ phase: 'rejected', rejection });
        return false;
      }
      case 'problem':
        setState({ phase: 'failed', title: `${order.connection.name} could not give the series`, message: outcome.message });
        return false;
      case 'failed':
        // A 401 has already ended the session through the API client.
        setState({ phase: 'failed', title: 'The import from the PACS failed', message: outcome.message });
        return false;
      case 'network':
        setState({ phase: 'failed', title: 'The request did not reach the server', message: NETWORK_PULL_MESSAGE });
        return false;
    }
  };

  const again = (extra: (fields: UploadFields) => UploadFields) => {
    if (last.current) void send(last.current.order, extra(last.current.fields));
  };

  return {
    state,
    pulling: state.phase === 'pulling',
    accepted,
    retryable: new Set(Object.keys(sentPulls)),
    send,
    /** The same pull again, with the same patient fields (after a failure). */
    retryLast: () => again((fields) => fields),
    /** An import of this page that failed in the background: the same series again. */
    retryImport: (importId: string) => {
      const sent = sentPulls[importId];
      if (!sent || busy.current) return;
      setSentPulls(({ [importId]: _, ...others }) => others);
      void send(sent.order, sent.fields);
    },
    /** The patient chosen for series without a Patient ID. */
    choosePatient: (fields: UploadFields) => again(() => fields),
    /** The user confirmed the patient whose name or birth date differs (the patient chosen before is kept). */
    confirmIdentity: () => again((fields) => ({ ...fields, confirmPatientIdentity: true })),
    cancelQuestion: () => setState({ phase: 'idle' }),
  };
}
