/**
 * The PACS round trip in the browser, against Debian's Orthanc started for the test: an
 * administrator adds the connection and tests it, a study is found and its series imported from
 * /upload, and the record's report is sent back and lands in Orthanc's study as an SR and a PDF.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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

/** The text of the PDF report stored in the study (its one DOC instance), as pdftotext reads it. */
async function sentPdfText(): Promise<string> {
  const headers = { authorization: orthanc.authorization!, 'content-type': 'application/json' };
  const found = await fetch(`${orthanc.httpUrl}/tools/find`, { method: 'POST', headers, body: JSON.stringify({ Level: 'Series', Query: { StudyInstanceUID: studyUid, Modality: 'DOC' } }) });
  const [series] = (await found.json()) as string[];
  const instances = (await (await fetch(`${orthanc.httpUrl}/series/${series}/instances`, { headers })).json()) as { ID: string }[];
  const pdf = Buffer.from(await (await fetch(`${orthanc.httpUrl}/instances/${instances[0]!.ID}/pdf`, { headers })).arrayBuffer());
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-e2e-pdf-')), 'report.pdf');
  fs.writeFileSync(file, pdf);
  const text = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' }).stdout;
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
  return text;
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
  // Issue 28: with gating on, the request says so (only that: the server gates the frames itself) and the PDF has its gated section.
  await page.getByRole('button', { name: 'Gated', exact: true }).click();
  await page.getByRole('button', { name: 'Send to PACS' }).click();
  const send = page.getByRole('dialog', { name: 'Send to PACS' });
  await expect(send).toContainText('Gating is on');
  const request = page.waitForRequest((r) => r.url().endsWith('/pacs-send') && r.method() === 'POST');
  await send.getByRole('button', { name: 'Send', exact: true }).click();
  expect(Object.keys((await request).postDataJSON() as object).sort()).toEqual(['connectionId', 'gating']);
  expect(((await request).postDataJSON() as { gating: unknown }).gating).toBe(true);
  await expect(page.getByText('Sent to Cath lab PACS')).toBeVisible({ timeout: 60_000 });
  expect(await modalitiesInOrthanc()).toEqual(['DOC', 'IVUS', 'SR', 'XA']);
  if (spawnSync('pdftotext', ['-v']).status === 0) {
    // These 24 frames beat no heart: the report says gating was on and found no cycle, rather than leaving it out.
    const text = await sentPdfText();
    expect(text).toContain('Gated analysis');
    expect(text).toContain('no cardiac cycle was found');
  }
});
