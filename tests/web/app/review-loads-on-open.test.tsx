/**
 * Issue 27, first load: the review's code is its own download, made when a record is opened. The
 * clinician sees a loading state meanwhile, and a failed download is a message with Retry, never a
 * blank screen.
 */
import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type * as ReviewDoor from '../../../src/web/review/index.ts';
import type { ReviewRouteProps } from '../../../src/web/review/index.ts';
import { AppRouter } from '../../../src/web/app/app-router.tsx';
import { fakeApi, renderApp, sessionUser, startFakeAuth } from '../render.tsx';

const downloads = vi.hoisted(() => ({ attempts: 0, failFirst: 0, hold: null as null | Promise<void> }));

// A stand-in page inside the real session (the toolbars read it): what is tested is how the app loads the review, not the review.
vi.mock('../../../src/web/review/index.ts', async (importOriginal) => {
  const original = await importOriginal<typeof ReviewDoor>();
  const { ReviewSessionProvider } = await import('../../../src/web/review/session/review-session-provider.tsx');
  function StandInReview({ patientId, recordId, frame }: ReviewRouteProps) {
    return (
      <ReviewSessionProvider patientId={patientId} recordId={recordId}>
        {frame(<p>Review of {recordId}</p>)}
      </ReviewSessionProvider>
    );
  }
  return {
    ...original,
    loadReviewRoute: async () => {
      downloads.attempts += 1;
      if (downloads.hold) await downloads.hold;
      if (downloads.attempts <= downloads.failFirst) throw new TypeError('Failed to fetch dynamically imported module: /assets/review-route-abc.js');
      return { default: StandInReview };
    },
  };
});

async function openReview() {
  const actor = await startFakeAuth({ user: sessionUser() });
  const api = fakeApi(() => Response.json({ items: [], total: 0, page: 1, pageSize: 25 }));
  return renderApp(<AppRouter />, { path: '/patients/P-1/records/R-1/review', auth: actor, api: api.client });
}

describe('opening a record loads the review', () => {
  it('says the review is opening until its code is in, then shows it in the app layout', async () => {
    let release = () => undefined as void;
    Object.assign(downloads, { attempts: 0, failFirst: 0, hold: new Promise<void>((resolve) => (release = resolve)) });
    await openReview();
    expect((await screen.findByRole('status')).textContent).toContain('Opening the review…');
    expect(screen.queryByText('Review of R-1')).toBeNull();

    release();
    expect(await screen.findByText('Review of R-1')).toBeTruthy();
    expect(screen.getByRole('navigation', { name: 'Main toolbar' })).toBeTruthy();
  });

  it('offers Retry when the download fails, and Retry downloads it again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    Object.assign(downloads, { attempts: 0, failFirst: 1, hold: null });
    await openReview();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The review could not be loaded')).toBeTruthy();
    expect(alert.textContent).toContain('check the connection');
    expect(screen.queryByText('Review of R-1')).toBeNull();

    await userEvent.setup().click(within(alert).getByRole('button', { name: 'Retry' }));
    expect(await screen.findByText('Review of R-1')).toBeTruthy();
    expect(downloads.attempts).toBe(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
