import { describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { ReviewPage } from '../../../../src/web/review/review-page.tsx';
import { ReviewSessionProvider } from '../../../../src/web/review/session/review-session-provider.tsx';
import { fakeApi, renderApp } from '../../render.tsx';
import { ONE_RECORD_PATIENT } from '../../review-fixture.ts';

// Counts the loads of the inspector package: the factory runs on its first import only.
const inspectPackage = vi.hoisted(() => ({ imported: 0, created: 0 }));
vi.mock('@statelyai/inspect', () => {
  inspectPackage.imported += 1;
  return {
    createBrowserInspector: () => {
      inspectPackage.created += 1;
      return { actor: () => undefined, inspect: { next: () => undefined }, start: () => undefined, stop: () => undefined, adapter: { targetWindow: null } };
    },
  };
});

// jsdom has no WebGL: the GPU panels are tested in a real browser (e2e/review.spec.ts).
vi.mock('../../../../src/web/review/panels/review-panels.tsx', () => ({
  ReviewPanels: () => <div data-testid="review-panels" />,
}));

const ANSWER = ONE_RECORD_PATIENT;

function renderReview(search: string) {
  const { client } = fakeApi(() => Response.json(ANSWER));
  return renderApp(
    <ReviewSessionProvider patientId="P-7" recordId="R-70">
      <ReviewPage patientId="P-7" recordId="R-70" />
    </ReviewSessionProvider>,
    { api: client, path: `/patients/P-7/records/R-70/review${search}` },
  );
}

// In this order: once the package is imported, it stays in the module cache.
describe('developer mode flag', () => {
  it('without dev=true: no overlay, and the inspector package is never imported', async () => {
    renderReview('?noImage=true&dev=false');
    expect(await screen.findByRole('heading', { level: 1, name: 'Review of 02/01/24' })).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByTestId('dev-overlay')).toBeNull();
    expect(inspectPackage.imported).toBe(0);
  });

  it('with dev=true: the overlay, and the inspector package imported and connected', async () => {
    renderReview('?noImage=true&dev=true');
    expect(await screen.findByTestId('dev-overlay')).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Open XState inspector' })).toBeTruthy();
    await waitFor(() => expect(inspectPackage.imported).toBe(1));
    expect(inspectPackage.created).toBe(1);
    expect(screen.getByTestId('review-panels')).toBeTruthy();
  });
});
