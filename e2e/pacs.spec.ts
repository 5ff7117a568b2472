/**
 * The PACS round trip in the browser, against Debian's Orthanc started for the test: an
 * administrator adds the connection and tests it, a study is found and its series imported from
 * /upload, and the record's report is sent back and lands in Orthanc's study as an SR and a PDF.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { makeDicom, newUid } from '../tests/support/dicom-fixtures.ts';
import { orthancAvailable, startOrthanc, type OrthancHandle } from '../tests/support/orthanc.ts';
import { administrator, signIn } from './sign-in.ts';

test.skip(!orthancAvailable(), "Debian's orthanc and orthanc-dicomweb are not installed");

let orthanc: OrthancHandle;
const patientId = `E2E-PACS-${Date.now()}`;
const studyUid = newUid();

test.beforeAll(async () => {
  orthanc = (await startOrthanc({ users: { reviewer: 'pacs-e2e-password' } }))!;
  // 256 pixels of 0.04 mm: a field of view the border detection works on.
  const common = { patientId, patientName: 'Pacs^Paula', studyUid, studyDate: '20260311' };
  await orthanc.upload(makeDicom({ ...common, frames: 24, rows: 256, columns: 256, regionDeltaXcm: 0.004 }).bytes);
  await orthanc.upload(makeDicom({ ...common, kind: 'xa', frames: 4 }).bytes);
});
test.afterAll(async () => {
  await orthanc?.stop();
});

/**
 * Serious or critical accessibility problems axe finds in the page's main content, once no animation
 * runs: a colour caught mid-transition (a row's highlight, a fading dialog) is not the page's colour.
 */
async function seriousAxeViolations(page: Page): Promise<string[]> {
  await page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));
  const axe = await new AxeBuilder({ page }).include('main').analyze();
  return axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help}`);
}

/** The study's instances in Orthanc, by modality. */
async function modalitiesInOrthanc(): Promise<string[]> {
  const response = await fetch(`${orthanc.dicomWebUrl}/studies/${studyUid}/series`, { headers: { authorization: orthanc.authorization! } });
  const series = (await response.json()) as Array<Record<string, { Value?: string[] }>>;
  return series.map((s) => s['00080060']?.Value?.[0] ?? '').sort();
}

test('an administrator connects the PACS; a study is pulled from it, reviewed, and its report sent back', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, administrator(), '/users');

  // Users → PACS: add the connection, test it, save it.
  await page.getByRole('tab', { name: 'PACS' }).click();
  await page.getByRole('button', { name: 'Add connection' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill('Cath lab PACS');
  await dialog.getByLabel('QIDO-RS base URL').fill(orthanc.dicomWebUrl);
  await dialog.getByText('Basic (user name and password)').click();
  await dialog.getByRole('textbox', { name: 'User name' }).fill('reviewer');
  await dialog.getByLabel(/^Password/).fill('wrong-password');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog).toContainText('refused the credentials');
  await dialog.getByLabel(/^Password/).fill('pacs-e2e-password');
  await dialog.getByRole('button', { name: 'Test connection' }).click();
  await expect(dialog).toContainText(/Connected: \d+ stud/);
  await dialog.getByRole('button', { name: 'Add connection' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: /Cath lab PACS/ })).toBeVisible();
  // Once the dialog's backdrop has faded out, which otherwise dims the page under it.
  await expect(page.locator('[data-scope="dialog"][data-part="backdrop"]')).toHaveCount(0);

  // DICOM senders: the cath lab console's AE title, registered from the keyboard alone.
  const senders = page.getByTestId('dicom-senders');
  await expect(senders).toContainText('No DICOM sender registered');
  await senders.getByRole('button', { name: 'Register sender' }).focus();
  await page.keyboard.press('Enter');
  const register = page.getByRole('dialog', { name: 'Register DICOM sender' });
  await expect(register.getByLabel(/Calling AE title/)).toBeFocused();
  await page.keyboard.type('CATHLAB1');
  await page.keyboard.press('Tab');
  await page.keyboard.type('Cath lab 1 console');
  await page.keyboard.press('Tab');
  await page.keyboard.type('10.1.2.0/24');
  await page.keyboard.press('Enter');
  await expect(register).toBeHidden();
  await expect(senders.getByRole('row', { name: /CATHLAB1/ })).toContainText('10.1.2.0/24');
  await expect(page.locator('[data-scope="dialog"][data-part="backdrop"]')).toHaveCount(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await expect(page.locator('body')).not.toContainText('pacs-e2e-password');

  // Upload → From PACS: search by patient, open the study, import its series.
  await page.getByRole('navigation', { name: 'Main toolbar' }).getByRole('button', { name: 'Upload', exact: true }).click();
  await page.getByRole('tab', { name: 'From PACS' }).click();
  await page.getByLabel('Patient ID').fill(patientId);
  await page.getByLabel('Patient ID').press('Enter');
  const studies = page.getByRole('region', { name: 'Studies found' });
  await expect(studies).toContainText('Pacs Paula');
  await studies.getByRole('button', { name: 'Show series' }).click();
  const series = page.getByTestId('pacs-series-section');
  await expect(series).toContainText('24');
  // The PACS renders the thumbnail; the page shows it decoded.
  const thumbnail = series.getByTestId('pacs-thumbnail').first();
  await expect(thumbnail).toBeVisible({ timeout: 30_000 });
  expect(await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
  expect(await seriousAxeViolations(page)).toEqual([]);
  await series.getByRole('button', { name: 'Import selected series' }).click();
  const item = page.getByTestId('import-item').filter({ hasText: 'From PACS Cath lab PACS' }).first();
  await expect(item.getByTestId('import-status')).toHaveText('Done', { timeout: 90_000 });
  await expect(item.getByTestId('import-progress')).toContainText(`patient ${patientId}`);

  // The record's review: Send to PACS stores the SR and the PDF in the same study.
  await item.getByRole('link', { name: 'Open the record' }).click();
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 120_000 });
  await page.getByRole('button', { name: 'Send to PACS' }).click();
  const send = page.getByRole('dialog', { name: 'Send to PACS' });
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(page.getByText('Sent to Cath lab PACS')).toBeVisible({ timeout: 60_000 });
  expect(await modalitiesInOrthanc()).toEqual(['DOC', 'IVUS', 'SR', 'XA']);
});
