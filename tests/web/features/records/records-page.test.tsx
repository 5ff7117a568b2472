import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RecordsPage } from '../../../../src/web/features/records/records-page.tsx';
import {
  PATIENT_CONTEXT_KEY,
  RECORD_CONTEXT_KEY,
  patientContextFrom,
} from '../../../../src/web/session/context-store.ts';
import type { PatientRecords } from '../../../../src/domain/records.ts';
import { fakeApi, renderApp, startFakeAuth } from '../../render.tsx';

const ANSWER: PatientRecords = {
  patient: { patientId: 'P-0001', name: 'Ann Lee', birthDate: '1961-04-09', sex: 'F', recordCount: 3, latestRecordDate: '2024-03-05T10:00:00Z' },
  records: [
    {
      recordId: 'R-1', patientId: 'P-0001', acquiredAt: '2024-03-05T10:00:00Z', modality: 'IVUS',
      bmodeFrameCount: 2400, angioFrameCount: 60, angioPreview: null, bmodePreview: null, annotation: null,
    },
    {
      recordId: 'R-2', patientId: 'P-0001', acquiredAt: '2023-11-20T09:00:00Z', modality: 'IVUS',
      bmodeFrameCount: 1800, angioFrameCount: 45, angioPreview: null, bmodePreview: 'records/R-2/previews/bmode',
      annotation: { status: 'saved', savedBy: 'dana@demo.test', savedAt: '2023-11-21T12:00:00Z' },
    },
    {
      recordId: 'R-3', patientId: 'P-0001', acquiredAt: '2023-01-02T09:00:00Z', modality: 'IVUS',
      bmodeFrameCount: 1, angioFrameCount: 0, angioPreview: null, bmodePreview: null,
      annotation: { status: 'new', savedBy: null, savedAt: null },
    },
  ],
};

function recordsServer(answer: () => Response | Promise<Response> = () => Response.json(ANSWER)) {
  return fakeApi((url) => (url.pathname.includes('/previews/') ? new Response('png-bytes') : answer()));
}

const cards = () => screen.queryAllByTestId('record-card');

describe('records of a patient', () => {
  it('shows each record with date, modality, frame counts, previews and annotation status', async () => {
    const { client } = recordsServer();
    renderApp(<RecordsPage patientId="P-0001" />, { api: client, auth: await startFakeAuth() });
    await waitFor(() => expect(cards()).toHaveLength(3));
    expect(screen.getByRole('heading', { level: 1, name: 'Ann Lee' })).toBeTruthy();

    const first = within(cards()[0] as HTMLElement);
    expect(first.getByRole('link', { name: 'Record of 03/05/24' })).toBeTruthy();
    expect(first.getByText('IVUS')).toBeTruthy();
    expect(cards()[0]?.textContent).toContain('2,400 frames');
    expect(cards()[0]?.textContent).toContain('60 frames');
    expect(first.getByRole('img', { name: 'Angio preview: no preview yet' })).toBeTruthy();
    expect(first.getByRole('img', { name: 'B-mode preview: no preview yet' })).toBeTruthy();
    expect(first.getByTestId('annotation-status').textContent).toBe('Not annotated');

    expect(within(cards()[1] as HTMLElement).getByTestId('annotation-status').textContent).toBe(
      'Saved by dana@demo.test on 11/21/23',
    );
    expect(within(cards()[2] as HTMLElement).getByTestId('annotation-status').textContent).toBe('New annotations');
  });

  it('fetches a preview with authorization and frees its object URL when it goes away', async () => {
    const created = vi.spyOn(URL, 'createObjectURL').mockReturnValue('blob:preview-1');
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const { client, fetchMock } = recordsServer();
    const { unmount } = renderApp(<RecordsPage patientId="P-0001" />, { api: client, auth: await startFakeAuth() });

    const image = await screen.findByRole('img', { name: 'B-mode preview' });
    expect(image.getAttribute('src')).toBe('blob:preview-1');
    const previewCall = fetchMock.mock.calls.find(([input]) => String(input).includes('/previews/'));
    expect(String(previewCall?.[0])).toBe('/api/demo/records/R-2/previews/bmode');
    expect(previewCall?.[1]?.headers).toMatchObject({ Authorization: 'Bearer id.token.sig' });
    expect(created).toHaveBeenCalledTimes(1);

    unmount();
    expect(revoked).toHaveBeenCalledWith('blob:preview-1');
  });

  it('keeps the patient context in session storage under one key', async () => {
    const { client } = recordsServer();
    renderApp(<RecordsPage patientId="P-0001" />, { api: client, auth: await startFakeAuth() });
    await waitFor(() => expect(cards()).toHaveLength(3));
    const stored = JSON.parse(sessionStorage.getItem(PATIENT_CONTEXT_KEY) ?? 'null');
    expect(stored.patient.patientId).toBe('P-0001');
    expect(stored.patient.records.map((r: { recordId: string }) => r.recordId)).toEqual(['R-1', 'R-2', 'R-3']);
    expect(stored.patient.records[1]).toMatchObject({
      recordId: 'R-2',
      annotations: null,
      angioPreview: null,
      bmodePreview: 'records/R-2/previews/bmode',
      annotation: { status: 'saved' },
    });
  });

  it('shows the stored context at once while the API answers', async () => {
    sessionStorage.setItem(PATIENT_CONTEXT_KEY, JSON.stringify(patientContextFrom(ANSWER)));
    const { client } = recordsServer(() => new Promise<Response>(() => undefined));
    renderApp(<RecordsPage patientId="P-0001" />, { api: client, auth: await startFakeAuth() });
    expect(cards()).toHaveLength(3);
  });

  it('opens the review of a clicked record and remembers it as the record context', async () => {
    const user = userEvent.setup();
    const { client } = recordsServer();
    const { currentPath } = renderApp(<RecordsPage patientId="P-0001" />, { api: client, auth: await startFakeAuth() });
    await waitFor(() => expect(cards()).toHaveLength(3));

    await user.click(screen.getByRole('link', { name: 'Record of 11/20/23' }));
    expect(currentPath()).toBe('/patients/P-0001/records/R-2/review');
    const stored = JSON.parse(sessionStorage.getItem(RECORD_CONTEXT_KEY) ?? 'null');
    expect(stored).toMatchObject({ patientId: 'P-0001', record: { recordId: 'R-2' } });
  });

  it('says when the patient does not exist', async () => {
    const { client } = recordsServer(() => Response.json({ error: 'not_found', message: 'No such patient' }, { status: 404 }));
    renderApp(<RecordsPage patientId="P-9999" />, { api: client, auth: await startFakeAuth() });
    expect(await screen.findByText('There is no patient P-9999 in this workspace.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to patients' }).getAttribute('href')).toBe('/patients');
  });

  it('shows a failure with Retry when nothing is stored', async () => {
    const user = userEvent.setup();
    let calls = 0;
    const { client } = recordsServer(() =>
      calls++ === 0 ? Response.json({ error: 'server_error', message: 'Try again later.' }, { status: 500 }) : Response.json(ANSWER),
    );
    renderApp(<RecordsPage patientId="P-0001" />, { api: client, auth: await startFakeAuth() });
    expect(await screen.findByText('Try again later.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Retry' }));
    await waitFor(() => expect(cards()).toHaveLength(3));
  });

  it('says when a record waits for its pullback, and marks an unknown date and assumed figures', async () => {
    const waiting: PatientRecords = {
      patient: { ...ANSWER.patient, recordCount: 1 },
      records: [
        {
          recordId: 'R-9', patientId: 'P-0001', acquiredAt: '2026-03-12T10:15:00Z', modality: 'XA',
          bmodeFrameCount: 0, angioFrameCount: 40, angioPreview: null, bmodePreview: 'records/R-9/previews/bmode', annotation: null,
          assumed: ['acquiredAt', 'pixelSpacing', 'pullbackSpeed'],
        },
      ],
    };
    const { client, fetchMock } = recordsServer(() => Response.json(waiting));
    renderApp(<RecordsPage patientId="P-0001" />, { api: client, auth: await startFakeAuth() });
    await waitFor(() => expect(cards()).toHaveLength(1));
    const card = within(cards()[0] as HTMLElement);
    // The import's own time stands in for the acquisition date: it is not shown as one.
    expect(card.getByRole('link', { name: 'Record, acquisition date unknown' })).toBeTruthy();
    expect(card.getByRole('img', { name: 'B-mode preview: pullback not yet imported' })).toBeTruthy();
    expect(cards()[0]?.textContent).toContain('B-mode: pullback not yet imported');
    expect(card.getByTestId('record-assumed').textContent).toBe('Pixel spacing and pullback speed assumed (not in the files)');
    // No B-mode preview is asked for.
    expect(fetchMock.mock.calls.some(([input]) => String(input).includes('previews/bmode'))).toBe(false);
  });
});
