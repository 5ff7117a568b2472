import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { IMPORT_ERROR_CODES } from '../../../../src/domain/imports.ts';
import type { PatientSummary } from '../../../../src/domain/patients.ts';
import { validateNewPatient } from '../../../../src/web/features/upload/patient-form.ts';
import { FakeXhr, batchOf, dicom, fileInput, importsServer, lastXhr, renderUpload, summary, installFakeXhr } from './upload-fixture.tsx';

installFakeXhr();

const patient = (patientId: string, name: string, birthDate: string | null = '1961-04-09'): PatientSummary => ({
  patientId,
  name,
  birthDate,
  sex: 'F',
  recordCount: 1,
  latestRecordDate: null,
});

const PATIENTS = [patient('DEM-001', 'Brown, Tomasz'), patient('DEM-002', 'Okafor, Ada'), patient('DEM-003', 'Okada, Ken', null)];

const sentFields = (xhr: FakeXhr) =>
  Object.fromEntries([...(xhr.body?.entries() ?? [])].filter(([name]) => name !== 'files').map(([name, value]) => [name, String(value)]));
const sentFiles = (xhr: FakeXhr) => xhr.body?.getAll('files').map((part) => (part as File).name);

const patientIdRequired = {
  error: 'patient_id_required',
  message: IMPORT_ERROR_CODES.patient_id_required,
  fileName: null,
  filesWithoutPatientId: ['pullback.dcm', 'angio.dcm'],
};

/** Uploads two files and has the server ask for their patient. */
async function askedForPatient(user: ReturnType<typeof userEvent.setup>) {
  const server = importsServer({ patients: PATIENTS });
  renderUpload(server, { patientSearchDebounceMs: 0 });
  await user.upload(fileInput(), [dicom('pullback.dcm', 100), dicom('angio.dcm', 50)]);
  await user.click(screen.getByRole('button', { name: 'Upload 2 files' }));
  lastXhr().respond(422, patientIdRequired);
  const chooser = await screen.findByTestId('patient-chooser');
  return { server, chooser: within(chooser) };
}

describe('files without a Patient ID', () => {
  it('asks for the patient, naming the files, with the question focused', async () => {
    const user = userEvent.setup();
    const { chooser } = await askedForPatient(user);
    const heading = chooser.getByRole('heading', { name: 'Which patient are these files of?' });
    expect(document.activeElement).toBe(heading);
    expect(chooser.getByText(/These files have no usable Patient ID: pullback\.dcm, angio\.dcm\./)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Upload 2 files' })).toBeNull();
    // Nothing was imported: the files stay listed.
    expect(screen.getAllByTestId('chosen-file')).toHaveLength(2);
  });

  it('searches the existing patients, and sends the same files again for the one chosen', async () => {
    const user = userEvent.setup();
    const { server, chooser } = await askedForPatient(user);
    await chooser.findByRole('radio', { name: /Brown, Tomasz/ });

    await user.type(chooser.getByRole('searchbox', { name: 'Search patients by name or Patient ID' }), 'oka');
    await waitFor(() => expect(chooser.queryByRole('radio', { name: /Brown, Tomasz/ })).toBeNull());
    expect(server.searches.at(-1)).toBe('oka');
    expect(chooser.getAllByRole('radio').map((radio) => radio.closest('label')?.textContent)).toEqual([
      'Okafor, AdaDEM-002 · born 04/09/61',
      'Okada, KenDEM-003 · birth date unknown',
    ]);

    // Uploading before choosing says what is missing.
    await user.click(chooser.getByRole('button', { name: 'Upload for the chosen patient' }));
    expect(chooser.getByRole('alert').textContent).toBe('Choose a patient from the list first.');
    expect(FakeXhr.sent).toHaveLength(1);

    await user.click(chooser.getByRole('radio', { name: /Okafor, Ada/ }));
    await user.click(chooser.getByRole('button', { name: 'Upload for Okafor, Ada (DEM-002)' }));
    expect(FakeXhr.sent).toHaveLength(2);
    expect(sentFields(lastXhr())).toEqual({ patientId: 'DEM-002' });
    expect(sentFiles(lastXhr())).toEqual(['pullback.dcm', 'angio.dcm']);
    // The form fields go before the files, so the server knows the patient as the files stream in.
    expect([...lastXhr().body!.keys()][0]).toBe('patientId');

    lastXhr().respond(202, batchOf(summary({ fileNames: ['pullback.dcm', 'angio.dcm'], patientId: 'DEM-002' })));
    await waitFor(() => expect(screen.queryByTestId('patient-chooser')).toBeNull());
    expect(screen.queryAllByTestId('chosen-file')).toHaveLength(0);
  });

  it('says when no patient matches the search', async () => {
    const user = userEvent.setup();
    const { chooser } = await askedForPatient(user);
    await user.type(chooser.getByRole('searchbox'), 'zzz');
    expect((await chooser.findByTestId('patient-search-empty')).textContent).toBe('No patient\'s ID or name contains "zzz".');
  });

  it('checks the new patient form, then sends the same files with the new patient', async () => {
    const user = userEvent.setup();
    const { chooser } = await askedForPatient(user);
    await user.click(chooser.getByRole('tab', { name: 'New patient' }));
    const form = within(chooser.getByRole('form', { name: 'New patient' }));

    await user.click(form.getByRole('button', { name: 'Create the patient and upload' }));
    expect(form.getByText('Enter the Patient ID.')).toBeTruthy();
    expect(form.getByText("Enter the patient's name.")).toBeTruthy();
    expect(document.activeElement).toBe(form.getByRole('textbox', { name: /Patient ID/ }));
    expect(form.getByRole('textbox', { name: /Patient ID/ }).getAttribute('aria-invalid')).toBe('true');
    expect(FakeXhr.sent).toHaveLength(1);

    await user.type(form.getByRole('textbox', { name: /Patient ID/ }), 'NEW 1');
    await user.type(form.getByRole('textbox', { name: /Name/ }), 'Doe, Jane');
    await user.click(form.getByRole('button', { name: 'Create the patient and upload' }));
    expect(form.getByText("Use letters, digits, '.', '_' and '-' only, up to 64 characters.")).toBeTruthy();

    await user.clear(form.getByRole('textbox', { name: /Patient ID/ }));
    await user.type(form.getByRole('textbox', { name: /Patient ID/ }), 'NEW-1');
    await user.type(form.getByLabelText('Birth date'), '1970-01-31');
    await user.selectOptions(form.getByRole('combobox', { name: 'Sex' }), 'Female');
    await user.click(form.getByRole('button', { name: 'Create the patient and upload' }));

    expect(FakeXhr.sent).toHaveLength(2);
    expect(sentFields(lastXhr())).toEqual({ patientId: 'NEW-1', patientName: 'Doe, Jane', birthDate: '1970-01-31', sex: 'F' });
    expect(sentFiles(lastXhr())).toEqual(['pullback.dcm', 'angio.dcm']);
  });

  it('cancels the question and keeps the files', async () => {
    const user = userEvent.setup();
    await askedForPatient(user);
    await user.click(screen.getByRole('button', { name: 'Cancel: do not upload' }));
    expect(screen.queryByTestId('patient-chooser')).toBeNull();
    expect(screen.getByRole('button', { name: 'Upload 2 files' })).toBeTruthy();
    expect(FakeXhr.sent).toHaveLength(1);
  });
});

describe('new patient validation', () => {
  const draft = { patientId: 'P-1', patientName: '  Doe,   Jane ', birthDate: '', sex: '' as const };

  it('answers the form fields, trimmed, leaving out what was not given', () => {
    expect(validateNewPatient(draft)).toEqual({ errors: {}, fields: { patientId: 'P-1', patientName: 'Doe, Jane' } });
  });

  it('refuses an impossible or future birth date and a name over the limit', () => {
    expect(validateNewPatient({ ...draft, birthDate: '2021-02-30' }, '2026-01-01').errors.birthDate).toBe('Enter a date such as 1961-04-09, or leave it empty.');
    expect(validateNewPatient({ ...draft, birthDate: '2026-01-02' }, '2026-01-01').errors.birthDate).toBe('The birth date is in the future.');
    expect(validateNewPatient({ ...draft, patientName: 'x'.repeat(201) }).errors.patientName).toBe('Enter a name of at most 200 characters.');
    expect(validateNewPatient({ ...draft, patientId: 'x'.repeat(65) }).fields).toBeNull();
  });
});

describe('a Patient ID that exists under another identity', () => {
  const mismatch = {
    error: 'patient_identity_mismatch',
    message: IMPORT_ERROR_CODES.patient_identity_mismatch,
    fileName: 'pullback.dcm',
    patientIdentity: { patientId: 'DEM-001', file: { name: 'Brown, Tom', birthDate: '1961-04-09' }, existing: { name: 'Brown, Tomasz', birthDate: '1961-04-09' } },
  };

  async function mismatched(user: ReturnType<typeof userEvent.setup>) {
    renderUpload();
    await user.upload(fileInput(), [dicom('pullback.dcm', 100)]);
    await user.click(screen.getByRole('button', { name: 'Upload 1 file' }));
    lastXhr().respond(409, mismatch);
    return within(await screen.findByRole('alertdialog'));
  }

  it('shows both identities side by side with Cancel focused, and imports nothing on Cancel', async () => {
    const user = userEvent.setup();
    const dialog = await mismatched(user);
    expect(dialog.getByRole('heading', { name: 'Is this the same patient?' })).toBeTruthy();
    const name = dialog.getByTestId('identity-name');
    expect(name.textContent).toBe('NamediffersBrown, TomBrown, Tomasz');
    expect(name.getAttribute('data-differs')).toBe('true');
    expect(dialog.getByTestId('identity-birth-date').getAttribute('data-differs')).toBeNull();
    expect(dialog.getAllByRole('columnheader').map((header) => header.textContent)).toEqual(['', 'In this upload', 'Existing patient']);

    const cancel = dialog.getByRole('button', { name: 'Cancel: import nothing' });
    await waitFor(() => expect(document.activeElement).toBe(cancel));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(FakeXhr.sent).toHaveLength(1);
    expect(screen.getAllByTestId('chosen-file')).toHaveLength(1);
  });

  it('sends the same files again with confirmPatientIdentity only on the explicit button', async () => {
    const user = userEvent.setup();
    const dialog = await mismatched(user);
    await user.click(dialog.getByRole('button', { name: 'Import into existing patient Brown, Tomasz (DEM-001)' }));
    expect(FakeXhr.sent).toHaveLength(2);
    expect(sentFields(lastXhr())).toEqual({ confirmPatientIdentity: 'true' });
    expect(sentFiles(lastXhr())).toEqual(['pullback.dcm']);
  });

  it('keeps the patient chosen before when confirming', async () => {
    const user = userEvent.setup();
    const { chooser } = await askedForPatient(user);
    await user.click(await chooser.findByRole('radio', { name: /Brown, Tomasz/ }));
    await user.click(chooser.getByRole('button', { name: 'Upload for Brown, Tomasz (DEM-001)' }));
    lastXhr().respond(409, mismatch);
    const dialog = within(await screen.findByRole('alertdialog'));
    await user.click(dialog.getByRole('button', { name: /^Import into existing patient/ }));
    expect(sentFields(lastXhr())).toEqual({ patientId: 'DEM-001', confirmPatientIdentity: 'true' });
  });
});
