import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import type { PatientRecords } from '../../../../src/domain/records.ts';
import { RecordsPage } from '../../../../src/web/features/records/records-page.tsx';
import { draftStore } from '../../../../src/web/review/index.ts';
import { fakeIdToken } from '../../fake-token.ts';
import { fakeApi, renderApp, startFakeAuth } from '../../render.tsx';

const owner = { issuer: 'http://demo.localhost/idp', subject: 'dana' };

const record = (recordId: string, acquiredAt: string, seriesDescription: string | null) => ({
  recordId, patientId: 'P-0002', acquiredAt, modality: 'IVUS', bmodeFrameCount: 900, angioFrameCount: 40,
  angioPreview: null, bmodePreview: null, annotation: null, seriesDescription,
});

// Two runs of one procedure (pre and post stenting) and one of another day, newest first as the API lists them.
const ANSWER: PatientRecords = {
  patient: { patientId: 'P-0002', name: 'Bo Ek', birthDate: null, sex: 'M', recordCount: 3, latestRecordDate: '2026-07-22T15:40:00' },
  records: [
    record('R-post', '2026-07-22T15:40:00', 'LAD post-PCI'),
    record('R-pre', '2026-07-22T14:05:00', 'LAD pre-PCI'),
    record('R-old', '2025-02-01T09:00:00', null),
  ],
};

describe('record cards tell runs apart', () => {
  it('name the run, its time and its place in the day, and say where an unsaved draft waits', async () => {
    await draftStore.saveDraft(owner, { recordId: 'R-pre', patientId: 'P-0002', baseVersion: 0, manifest: emptyManifest(), updatedAt: Date.now() });
    const { client } = fakeApi(() => Response.json(ANSWER));
    const auth = await startFakeAuth({
      user: { profile: { email: 'dana@demo.test', name: 'Dana' }, access_token: 'a', id_token: fakeIdToken({ ...{ iss: owner.issuer, sub: owner.subject }, email: 'dana@demo.test' }), token_type: 'Bearer' },
    });
    renderApp(<RecordsPage patientId="P-0002" />, { api: client, auth });
    await waitFor(() => expect(screen.queryAllByTestId('record-card')).toHaveLength(3));
    const [post, pre, old] = screen.getAllByTestId('record-card').map((card) => within(card));

    expect(post!.getByRole('link', { name: 'LAD post-PCI of 07/22/26' })).toBeTruthy();
    expect(post!.getByTestId('record-when').textContent).toMatch(/03:40\s?PM · run 2 of 2 that day/);
    expect(pre!.getByRole('link', { name: 'LAD pre-PCI of 07/22/26' })).toBeTruthy();
    expect(pre!.getByTestId('record-when').textContent).toMatch(/02:05\s?PM · run 1 of 2 that day/);
    // Alone on its day: no run number; no description: "Record".
    expect(old!.getByRole('link', { name: 'Record of 02/01/25' })).toBeTruthy();
    expect(old!.getByTestId('record-when').textContent).not.toContain('run');

    await waitFor(() => expect(pre!.getByTestId('record-draft').textContent).toBe('Unsaved draft in this browser'));
    expect(post!.queryByTestId('record-draft')).toBeNull();
    expect(old!.queryByTestId('record-draft')).toBeNull();
  });

  it('label a loop that is not IVUS as other ultrasound, view only', async () => {
    const other: PatientRecords = {
      ...ANSWER,
      records: [{ ...record('R-us', '2026-07-22T15:40:00', 'OB 2nd trimester'), modality: 'US', imagingKind: 'other-ultrasound' }, record('R-ivus', '2026-07-21T10:00:00', 'RCA')],
    };
    const { client } = fakeApi(() => Response.json(other));
    renderApp(<RecordsPage patientId="P-0002" />, { api: client, auth: await startFakeAuth() });
    await waitFor(() => expect(screen.queryAllByTestId('record-card')).toHaveLength(2));
    const [us, ivus] = screen.getAllByTestId('record-card').map((card) => within(card));
    expect(us!.getByTestId('record-other-ultrasound').textContent).toBe('Other ultrasound (not IVUS): view only');
    expect(ivus!.queryByTestId('record-other-ultrasound')).toBeNull();
  });
});
