import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IMPORT_ERROR_CODES } from '../../../../src/domain/imports.ts';
import { FakeXhr, dicom, fileInput, lastXhr, renderUpload, installFakeXhr } from './upload-fixture.tsx';

installFakeXhr();

const sentFields = (xhr: FakeXhr) =>
  Object.fromEntries([...(xhr.body?.entries() ?? [])].filter(([name]) => name !== 'files').map(([name, value]) => [name, String(value)]));

const notIvus = {
  error: 'not_ivus',
  message: 'fetal.dcm: it is ultrasound but not an IVUS pullback (modality US from GE Healthcare Voluson E10, body part PELVIS, with no IVUS acquisition attributes): send confirmOtherUltrasound=true to import it as other ultrasound, to view only.',
  fileName: 'fetal.dcm',
};

describe('an ultrasound loop that is not an IVUS pullback', () => {
  async function refused(user: ReturnType<typeof userEvent.setup>) {
    renderUpload();
    await user.upload(fileInput(), [dicom('fetal.dcm', 100)]);
    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    lastXhr().respond(409, notIvus);
    return within(await screen.findByRole('alertdialog'));
  }

  it('says why and what it would lose, with Cancel focused, and imports nothing on Cancel', async () => {
    expect(IMPORT_ERROR_CODES.not_ivus).toMatch(/not an IVUS pullback/);
    const user = userEvent.setup();
    const dialog = await refused(user);
    expect(dialog.getByRole('heading', { name: 'This is not an IVUS pullback' })).toBeTruthy();
    expect(dialog.getByText(/GE Healthcare Voluson E10, body part PELVIS/)).toBeTruthy();
    expect(dialog.getByText(/no report, CSV or Send to PACS/)).toBeTruthy();
    const cancel = dialog.getByRole('button', { name: 'Cancel: import nothing' });
    await waitFor(() => expect(document.activeElement).toBe(cancel));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(FakeXhr.sent).toHaveLength(1);
    expect(screen.getAllByTestId('chosen-file')).toHaveLength(1);
  });

  it('sends the same files again with confirmOtherUltrasound only on the explicit button', async () => {
    const user = userEvent.setup();
    const dialog = await refused(user);
    await user.click(dialog.getByRole('button', { name: 'Import as other ultrasound (view only)' }));
    expect(FakeXhr.sent).toHaveLength(2);
    expect(sentFields(lastXhr())).toEqual({ confirmOtherUltrasound: 'true' });
  });
});
