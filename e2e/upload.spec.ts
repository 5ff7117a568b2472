import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { signIn } from './sign-in.ts';

const FRAMES = 24;

async function openUpload(page: Page) {
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main toolbar' }).getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page).toHaveURL(/\/upload$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Upload' })).toBeVisible();
}

test('a multi-frame DICOM file uploaded on /upload becomes a record whose frames the review shows', async ({ page }) => {
  const patientId = `E2E-UP-${Date.now()}`;
  const pullback = makeDicom({ kind: 'ivus', syntax: 'explicit', rows: 96, columns: 96, frames: FRAMES, patientId, patientName: 'Upload^Eve' });
  await openUpload(page);

  await page.getByTestId('file-input').setInputFiles({ name: 'pullback.dcm', mimeType: 'application/dicom', buffer: pullback.bytes });
  const row = page.getByTestId('chosen-file');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('pullback.dcm');
  await expect(row.getByTestId('file-size')).toHaveText(/KiB$/);

  const axe = await new AxeBuilder({ page }).include('main').analyze();
  const serious = axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
  expect(serious).toEqual([]);

  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  // The file leaves the list once the server has accepted it; its import is listed first.
  await expect(page.getByTestId('chosen-file')).toHaveCount(0, { timeout: 30_000 });
  const item = page.getByTestId('import-item').first();
  await expect(item).toContainText('pullback.dcm');
  await expect(item.getByTestId('import-status')).toHaveText('Done', { timeout: 60_000 });
  await expect(item.getByTestId('import-progress')).toHaveText(`${FRAMES} frames imported for patient ${patientId}.`);
  await expect(item.getByRole('link', { name: `Records of patient ${patientId}` })).toHaveAttribute('href', `/patients/${patientId}/records`);

  // Coming back later, the import is still listed with its state.
  await page.getByRole('button', { name: 'Navigate back' }).click();
  await expect(page).toHaveURL(/\/patients$/);
  await page.getByRole('navigation', { name: 'Main toolbar' }).getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page.getByTestId('import-item').first().getByTestId('import-status')).toHaveText('Done');

  await page.getByTestId('import-item').first().getByRole('link', { name: 'Open the record' }).click();
  await expect(page).toHaveURL(new RegExp(`/patients/${patientId}/records/[^/]+/review$`));
  await expect(page.getByTestId('frames-status')).toHaveText(new RegExp(`${FRAMES} B-mode and \\d+ angio frames (loaded|downloaded)`), {
    timeout: 60_000,
  });
});

test('a file that is not DICOM is refused with its reason shown next to it, and nothing is imported', async ({ page }) => {
  await openUpload(page);
  await expect(page.getByTestId('import-list').or(page.getByText('No imports yet'))).toBeVisible();
  const before = await page.getByTestId('import-item').count();
  await page.getByTestId('file-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not an image at all\n'.repeat(20)) });
  await page.getByRole('button', { name: 'Upload 1 file' }).click();

  const error = page.getByTestId('chosen-file').filter({ hasText: 'notes.txt' }).getByTestId('file-error');
  await expect(error).toContainText('The file is not a DICOM file.');
  await expect(page.getByTestId('import-item')).toHaveCount(before);
  await page.getByRole('button', { name: 'Remove notes.txt' }).click();
  await expect(page.getByTestId('chosen-file')).toHaveCount(0);
});

test('a file without a Patient ID is uploaded for a new patient chosen on the page, and its record opens', async ({ page }) => {
  const patientId = `E2E-NOID-${Date.now()}`;
  const pullback = makeDicom({ kind: 'ivus', syntax: 'explicit', rows: 96, columns: 96, frames: FRAMES, patientId: '' });
  await openUpload(page);

  await page.getByTestId('file-input').setInputFiles({ name: 'no-patient-id.dcm', mimeType: 'application/dicom', buffer: pullback.bytes });
  await page.getByRole('button', { name: 'Upload 1 file' }).click();

  // The server imports nothing and asks which patient the file is of.
  const chooser = page.getByTestId('patient-chooser');
  await expect(chooser.getByRole('heading', { name: 'Which patient are these files of?' })).toBeVisible({ timeout: 30_000 });
  await expect(chooser).toContainText('no-patient-id.dcm');
  await expect(page.getByTestId('chosen-file')).toHaveCount(1);

  await chooser.getByRole('tab', { name: 'New patient' }).click();
  const form = chooser.getByRole('form', { name: 'New patient' });
  await form.getByRole('button', { name: 'Create the patient and upload' }).click();
  await expect(form.getByText('Enter the Patient ID.')).toBeVisible();
  await expect(form.getByText("Enter the patient's name.")).toBeVisible();

  await form.getByRole('textbox', { name: /Patient ID/ }).fill(patientId);
  await form.getByRole('textbox', { name: /Name/ }).fill('Newman, Ann');
  await form.getByLabel('Birth date').fill('1970-01-31');
  await form.getByRole('combobox', { name: 'Sex' }).selectOption('F');
  await form.getByRole('button', { name: 'Create the patient and upload' }).click();

  // The same file goes again with the patient; its import is followed under "This upload".
  await expect(page.getByTestId('patient-chooser')).toHaveCount(0, { timeout: 30_000 });
  const item = page.getByTestId('batch-result').getByTestId('import-item');
  await expect(item).toHaveCount(1, { timeout: 30_000 });
  await expect(item).toContainText('no-patient-id.dcm');
  await expect(item.getByTestId('import-status')).toHaveText('Done', { timeout: 60_000 });
  await expect(item.getByTestId('import-progress')).toHaveText(`${FRAMES} frames imported for patient ${patientId}.`);

  await item.getByRole('link', { name: 'Open the record' }).click();
  await expect(page).toHaveURL(new RegExp(`/patients/${patientId}/records/[^/]+/review$`));
  await expect(page.getByText(`Newman, Ann · ${patientId}`)).toBeVisible();
  await expect(page.getByTestId('frames-status')).toHaveText(new RegExp(`${FRAMES} B-mode and \\d+ angio frames (loaded|downloaded)`), {
    timeout: 60_000,
  });
});
