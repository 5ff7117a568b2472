import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { ReviewPage } from '../../../src/web/review/review-page.tsx';
import { PATIENT_CONTEXT_KEY, RECORD_CONTEXT_KEY } from '../../../src/web/session/context-store.ts';
import { fakeApi, renderApp } from '../render.tsx';

const ANSWER = {
  patient: { patientId: 'P-7', name: 'Bo Chen', birthDate: null, sex: 'M', recordCount: 1, latestRecordDate: '2024-02-01T08:00:00Z' },
  records: [
    {
      recordId: 'R-70', patientId: 'P-7', acquiredAt: '2024-02-01T08:00:00Z', modality: 'IVUS',
      bmodeFrameCount: 10, angioFrameCount: 2, angioPreview: null, bmodePreview: null, annotation: null,
    },
  ],
};

describe('review deep link', () => {
  it('restores the patient and record contexts from the API after a reload', async () => {
    const { client, fetchMock } = fakeApi(() => Response.json(ANSWER));
    renderApp(<ReviewPage patientId="P-7" recordId="R-70" />, { api: client });
    expect(await screen.findByRole('heading', { level: 1, name: 'Review of 02/01/24' })).toBeTruthy();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/demo/patients/P-7/records');
    expect(JSON.parse(sessionStorage.getItem(PATIENT_CONTEXT_KEY) ?? 'null').patient.patientId).toBe('P-7');
    await waitFor(() =>
      expect(JSON.parse(sessionStorage.getItem(RECORD_CONTEXT_KEY) ?? 'null')).toMatchObject({
        patientId: 'P-7',
        record: { recordId: 'R-70' },
      }),
    );
    expect(within(screen.getByTestId('review-panels')).getAllByRole('region').map((panel) => panel.getAttribute('aria-label'))).toEqual([
      'Angio panel',
      'B-mode panel',
      'L-mode panel',
    ]);
  });

  it('says when the record does not belong to the patient', async () => {
    const { client } = fakeApi(() => Response.json(ANSWER));
    renderApp(<ReviewPage patientId="P-7" recordId="R-nope" />, { api: client });
    expect(await screen.findByText('Patient P-7 has no record R-nope.')).toBeTruthy();
  });
});
