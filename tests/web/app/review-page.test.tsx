import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { ReviewPage } from '../../../src/web/review/review-page.tsx';
import { ReviewSessionProvider } from '../../../src/web/review/session/review-session-provider.tsx';
import { PATIENT_CONTEXT_KEY, RECORD_CONTEXT_KEY } from '../../../src/web/session/context-store.ts';
import { fakeApi, renderApp } from '../render.tsx';
import { ONE_RECORD_PATIENT } from '../review-fixture.ts';

// jsdom has no WebGL: the GPU panels are tested in a real browser (e2e/review.spec.ts).
vi.mock('../../../src/web/review/panels/review-panels.tsx', () => ({
  ReviewPanels: () => <div data-testid="review-panels" />,
}));

const ANSWER = ONE_RECORD_PATIENT;

describe('review deep link', () => {
  it('restores the patient and record contexts from the API after a reload', async () => {
    const { client, fetchMock } = fakeApi(() => Response.json(ANSWER));
    renderApp(
      <ReviewSessionProvider patientId="P-7" recordId="R-70">
        <ReviewPage patientId="P-7" recordId="R-70" />
      </ReviewSessionProvider>,
      { api: client },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Review of 02/01/24' })).toBeTruthy();
    expect(String(fetchMock.mock.calls[0]?.[0])).toBe('/api/demo/patients/P-7/records');
    expect(JSON.parse(sessionStorage.getItem(PATIENT_CONTEXT_KEY) ?? 'null').patient.patientId).toBe('P-7');
    await waitFor(() =>
      expect(JSON.parse(sessionStorage.getItem(RECORD_CONTEXT_KEY) ?? 'null')).toMatchObject({
        patientId: 'P-7',
        record: { recordId: 'R-70' },
      }),
    );
    expect(screen.getByTestId('review-panels')).toBeTruthy();
  });

  it('says when the record does not belong to the patient', async () => {
    const { client } = fakeApi(() => Response.json(ANSWER));
    renderApp(
      <ReviewSessionProvider patientId="P-7" recordId="R-nope">
        <ReviewPage patientId="P-7" recordId="R-nope" />
      </ReviewSessionProvider>,
      { api: client },
    );
    expect(await screen.findByText('Patient P-7 has no record R-nope.')).toBeTruthy();
  });
});
