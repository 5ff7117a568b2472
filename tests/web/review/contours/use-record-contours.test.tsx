/**
 * Issue 23: the server stores a record's final contours before their stent. The page shows the
 * borders and MLA as soon as they are in, keeps polling (1.5 s apart) while the stent is being read,
 * without computing the review again for an answer that brings nothing new, and stops once the
 * stent is in.
 */
import type { ReactNode } from 'react';
import { renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { RecordContoursWithStent } from '../../../../src/domain/stent/stored-stent.ts';
import { ApiProvider } from '../../../../src/web/api/api-context.tsx';
import { useRecordContours, type RecordContoursState } from '../../../../src/web/review/contours/use-record-contours.ts';
import { fakeApi } from '../../render.tsx';
import { detectedContours } from './contours-fixture.ts';

const STENT: NonNullable<RecordContoursWithStent['stent']> = { segment: null, slices: [], msa: null, malapposition: [] };

describe('the record contours hook', () => {
  it('shows the final contours while the stent is read, polls on until it is in, then stops', async () => {
    const borders = detectedContours(30);
    // Twice the borders waiting for their stent, then with it.
    const answers: RecordContoursWithStent[] = [{ ...borders, stentPending: true }, { ...borders, stentPending: true }, { ...borders, stent: STENT }];
    const { client, requests } = fakeApi(() => Response.json(answers[Math.min(requests().length, answers.length) - 1]));
    const wrapper = ({ children }: { children: ReactNode }) => <ApiProvider client={client}>{children}</ApiProvider>;
    const seen: RecordContoursState[] = [];
    const { result } = renderHook(() => {
      const state = useRecordContours('rec-1');
      if (seen.at(-1) !== state) seen.push(state);
      return state;
    }, { wrapper });

    await waitFor(() => expect(result.current.status).toBe('ready'));
    const first = result.current as Extract<RecordContoursState, { status: 'ready' }>;
    expect(first.contours.stentPending).toBe(true);
    expect(first.contours.stent).toBeUndefined();
    expect(first.contours.mla).toEqual(borders.mla);

    // The second answer is the same contours still waiting: the state (and the review computed from it) stays as it is.
    await waitFor(() => expect(requests().length).toBeGreaterThanOrEqual(2), { timeout: 5000 });
    await waitFor(() => expect((result.current as typeof first).contours.stent).toEqual(STENT), { timeout: 5000 });
    expect(seen.filter((s) => s.status === 'ready')).toHaveLength(2);
    expect((result.current as typeof first).contours.stentPending).toBeUndefined();

    // With the stent in, no further poll.
    const polls = requests().length;
    expect(polls).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(requests().length).toBe(polls);
    expect(requests().every((r) => r.call === 'GET /api/demo/records/rec-1/contours')).toBe(true);
  }, 15_000);
});
