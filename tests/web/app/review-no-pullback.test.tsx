import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import type { ReviewPanelsProps } from '../../../src/web/review/panels/review-panels.tsx';
import { NO_PULLBACK_NOTE } from '../../../src/web/review/panels/missing-series.ts';
import { ReviewPage } from '../../../src/web/review/review-page.tsx';
import { ReviewSessionProvider } from '../../../src/web/review/session/review-session-provider.tsx';
import { fakeApi, renderApp } from '../render.tsx';

// jsdom has no WebGL: the panels are a stand-in naming what the page asks of them (how they
// collapse is tested in tests/web/review/panels/missing-series-panels.test.tsx).
vi.mock('../../../src/web/review/panels/review-panels.tsx', () => ({
  ReviewPanels: ({ noPullback }: ReviewPanelsProps) => <div data-testid="review-panels" data-no-pullback={String(noPullback)} />,
}));

const RECORD = {
  recordId: 'R-81',
  patientId: 'P-8',
  acquiredAt: '2026-03-12T10:15:00Z',
  modality: 'XA',
  bmodeFrameCount: 0,
  angioFrameCount: 2,
  angioPreview: null,
  bmodePreview: null,
  annotation: null,
  pixelSpacingMm: 0.01,
  frameRateHz: 30,
  pullbackSpeedMmPerS: 0.5,
  assumed: ['acquiredAt', 'pixelSpacing', 'pullbackSpeed'],
};
const PATIENT = { patientId: 'P-8', name: 'Ada Okafor', birthDate: null, sex: 'F', recordCount: 1, latestRecordDate: null };
/** The image lists the server sends for a record waiting for its pullback: no B-mode frame. */
const IMAGES = {
  recordId: 'R-81',
  patientId: 'P-8',
  version: 'v1',
  frameRateHz: 30,
  pullbackSpeedMmPerS: 0.5,
  pixelSpacingMm: 0.01,
  bmode: { count: 0, width: 4, height: 4, framesPerChunk: 16, chunks: [] },
  angio: { count: 2, width: 4, height: 4, framesPerChunk: 16, chunks: ['records/R-81/frames/angio/0?v=v1'] },
};

function server() {
  return fakeApi((url) => {
    const path = url.pathname.replace(/^\/api\/demo\//, '');
    if (path === 'patients/P-8/records') return Response.json({ patient: PATIENT, records: [RECORD] });
    if (path === 'records/R-81/images') return Response.json(IMAGES);
    if (path === 'records/R-81/frames/angio/0') return new Response(new Uint8Array(2 * 16));
    if (path.startsWith('records/R-81/annotations')) return Response.json({ error: 'not_found', message: 'none' }, { status: 404 });
    return Response.json({ error: 'not_found', message: `no ${path}` }, { status: 404 });
  });
}

describe('the review of a record waiting for its pullback', () => {
  it('shows the angio run, says the pullback has not arrived, and asks for nothing of the B-mode', async () => {
    const { client, fetchMock } = server();
    renderApp(
      <ReviewSessionProvider patientId="P-8" recordId="R-81">
        <ReviewPage patientId="P-8" recordId="R-81" />
      </ReviewSessionProvider>,
      { api: client },
    );
    expect(await screen.findByRole('heading', { level: 1, name: 'Review, acquisition date unknown' })).toBeTruthy();
    await waitFor(() => expect(screen.getByTestId('frames-status').textContent).toBe('0 B-mode and 2 angio frames loaded'));
    expect(screen.getByTestId('review-panels').getAttribute('data-no-pullback')).toBe('true');
    // One line says why the B-mode and L-mode panels are not there (issue 26), instead of a panel saying it.
    expect(screen.getByTestId('missing-series-note').textContent).toBe(NO_PULLBACK_NOTE);
    // No B-mode: no lumen contours, no pullback analysis, no L-mode image, no position in mm.
    const asked = fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://demo.localhost').pathname);
    expect(asked.filter((path) => /contours|lmode|bmode/.test(path))).toEqual([]);
    expect(screen.queryByText(/Pullback analysis/)).toBeNull();
    expect(screen.getByTestId('slice-indicator').textContent).toBe('Slice 1 / 2');
    expect(screen.getByTestId('acquisition-facts').textContent).toBe('Acquired unknown · 0.01 mm/px (assumed) · 30 frames/s · 0.5 mm/s (assumed)');
  });
});
