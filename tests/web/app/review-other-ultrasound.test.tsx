import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { OTHER_ULTRASOUND_LABEL } from '../../../src/domain/records.ts';
import { AppLayout } from '../../../src/web/app/app-layout.tsx';
import { NO_ANGIO_NOTE } from '../../../src/web/review/panels/missing-series.ts';
import type { ReviewPanelsProps } from '../../../src/web/review/panels/review-panels.tsx';
import { ReviewPage } from '../../../src/web/review/review-page.tsx';
import { ReviewSessionProvider } from '../../../src/web/review/session/review-session-provider.tsx';
import { fakeApi, renderApp, sessionUser, startFakeAuth } from '../render.tsx';

// jsdom has no WebGL: the panels are a stand-in; what matters here is what the page offers around them.
vi.mock('../../../src/web/review/panels/review-panels.tsx', () => ({
  ReviewPanels: ({ overlays }: ReviewPanelsProps) => <div data-testid="review-panels" data-overlays={Object.keys(overlays ?? {}).join(',')} />,
}));

const FRAMES = 3;
const record = (imagingKind?: 'ivus' | 'other-ultrasound') => ({
  recordId: 'R-91',
  patientId: 'P-9',
  acquiredAt: '2026-03-12T10:15:00Z',
  modality: 'US',
  bmodeFrameCount: FRAMES,
  angioFrameCount: 0,
  angioPreview: null,
  bmodePreview: null,
  annotation: null,
  pixelSpacingMm: 0.2,
  frameRateHz: 25,
  pullbackSpeedMmPerS: 0.5,
  assumed: ['pullbackSpeed'],
  ...(imagingKind ? { imagingKind } : {}),
});
const PATIENT = { patientId: 'P-9', name: 'Ada Okafor', birthDate: null, sex: 'F', recordCount: 1, latestRecordDate: null };
const IMAGES = {
  recordId: 'R-91',
  patientId: 'P-9',
  version: 'v1',
  frameRateHz: 25,
  pullbackSpeedMmPerS: 0.5,
  pixelSpacingMm: 0.2,
  bmode: { count: FRAMES, width: 4, height: 4, framesPerChunk: 16, chunks: ['records/R-91/frames/bmode/0?v=v1'] },
  angio: { count: 0, width: 4, height: 4, framesPerChunk: 16, chunks: [] },
};

function server(imagingKind?: 'ivus' | 'other-ultrasound') {
  return fakeApi((url) => {
    const path = url.pathname.replace(/^\/api\/demo\//, '');
    if (path === 'patients/P-9/records') return Response.json({ patient: PATIENT, records: [record(imagingKind)] });
    if (path === 'records/R-91/images') return Response.json(IMAGES);
    if (path === 'records/R-91/frames/bmode/0') return new Response(new Uint8Array(FRAMES * 16));
    if (path === 'records/R-91/contours') return Response.json({ error: 'not_ivus', message: 'not an IVUS pullback' }, { status: 422 });
    return Response.json({ error: 'not_found', message: `no ${path}` }, { status: 404 });
  });
}

async function renderReview(imagingKind?: 'ivus' | 'other-ultrasound') {
  const { client, fetchMock } = server(imagingKind);
  const auth = await startFakeAuth({ user: sessionUser() });
  renderApp(
    <ReviewSessionProvider patientId="P-9" recordId="R-91">
      <AppLayout screen="review">
        <ReviewPage patientId="P-9" recordId="R-91" />
      </AppLayout>
    </ReviewSessionProvider>,
    { auth, api: client, path: '/patients/P-9/records/R-91/review' },
  );
  await waitFor(() => expect(screen.getByTestId('frames-status').textContent).toBe(`${FRAMES} B-mode and 0 angio frames loaded`));
  const asked = () => fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://demo.localhost').pathname);
  const tools = () => within(screen.getByRole('group', { name: 'Annotation tools' })).getAllByRole('button').map((b) => b.getAttribute('aria-label'));
  return { asked, tools };
}

describe('the review of other ultrasound (issue 26: only IVUS is analysed as IVUS)', () => {
  it('says what the loop is, asks for no borders, offers no analysis, report or contour tool, and keeps the measuring tools', async () => {
    const { asked, tools } = await renderReview('other-ultrasound');
    expect(screen.getByTestId('imaging-kind').textContent).toBe(OTHER_ULTRASOUND_LABEL);
    expect(tools()).toEqual(['Ruler', 'Area', 'Text', 'Angle', 'Brightness']);
    // The loop has no angiography run: its panel is collapsed, and one line says so.
    expect(screen.getByTestId('missing-series-note').textContent).toBe(NO_ANGIO_NOTE);
    // Still nothing asked of the borders once the frames are in (when an IVUS review asks for them).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(asked().filter((path) => path.includes('contours'))).toEqual([]);
    expect(screen.queryByText(/Pullback analysis/)).toBeNull();
    expect(screen.queryByRole('button', { name: /PDF|CSV|Send to PACS/ })).toBeNull();
    // A loop has no pullback: no position in mm, no pullback speed in the facts.
    expect(screen.getByTestId('slice-indicator').textContent).toBe(`Slice 1 / ${FRAMES}`);
    expect(screen.getByTestId('acquisition-facts').textContent).not.toMatch(/mm\/s/);
  });

  it('leaves an IVUS record as it was: no label, the contour tool, and its borders asked for', async () => {
    const { asked, tools } = await renderReview('ivus');
    expect(screen.queryByTestId('imaging-kind')).toBeNull();
    expect(tools()).toContain('Contour');
    await waitFor(() => expect(asked()).toContain('/api/demo/records/R-91/contours'));
    expect(screen.getByText(/Pullback analysis/)).toBeTruthy();
  });
});
