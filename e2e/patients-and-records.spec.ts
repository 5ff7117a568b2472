import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { administrator, clinician, signIn } from './sign-in.ts';

async function seriousAccessibilityViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')})`);
}

test('patients search and paging on the 10,000-patient tenant', async ({ page }) => {
  await signIn(page, clinician('large'));
  await expect(page.getByTestId('patients-total')).toHaveText('10,000 patients');
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 1 of 400');
  const firstPageIds = await page.getByTestId('patient-row').allTextContents();
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByTestId('page-indicator')).toHaveText('Page 2 of 400');
  await expect(page.getByTestId('patient-row').first()).not.toHaveText(firstPageIds[0]!);
  const secondPageIds = await page.getByTestId('patient-row').allTextContents();
  expect(secondPageIds).toHaveLength(25);
  expect(secondPageIds.some((row) => firstPageIds.includes(row))).toBe(false);

  await page.getByRole('searchbox', { name: 'Search patients' }).fill('LAR-000042');
  await expect(page.getByTestId('patient-row')).toHaveCount(1);
  await expect(page.getByTestId('patient-row')).toContainText('LAR-000042');

  await page.getByRole('searchbox', { name: 'Search patients' }).fill('garcia');
  await expect(page.getByTestId('patient-row').first()).toContainText(/garcia/i);
  await expect(page.getByTestId('page-indicator')).toHaveText(/^Page 1 of \d+$/);
  const rows = await page.getByTestId('patient-row').allTextContents();
  expect(rows.length).toBeGreaterThan(0);
  for (const row of rows) expect(row.toLowerCase()).toContain('garcia');

  // Any word order, and without accents: what a clinician types from a letter or a phone call.
  await page.getByRole('searchbox', { name: 'Search patients' }).fill('tomasz brown');
  await expect(page.getByTestId('patient-row').first()).toContainText('Brown, Tomasz');
  await page.getByRole('searchbox', { name: 'Search patients' }).fill('müller');
  await expect(page.getByTestId('patient-row').first()).toContainText('Muller');

  await page.getByRole('searchbox', { name: 'Search patients' }).fill('no such patient anywhere');
  await expect(page.getByTestId('empty-state')).toBeVisible();
});

test('sorting by a column re-orders the list from the server', async ({ page }) => {
  await signIn(page, clinician('large'));
  await page.getByRole('button', { name: 'Patient ID' }).click();
  await expect(page.getByTestId('patient-row').first()).toContainText('LAR-000001');
  await page.getByRole('button', { name: 'Patient ID' }).click();
  await expect(page.getByTestId('patient-row').first()).toContainText('LAR-010000');
});

test('open a patient, see the records with their previews, and navigate back', async ({ page }) => {
  await signIn(page);
  await page.getByRole('searchbox', { name: 'Search patients' }).fill('DEM-001');
  await expect(page.getByTestId('patient-row')).toHaveCount(1);
  await page.getByTestId('patient-row').click();
  await expect(page).toHaveURL(/\/patients\/DEM-001\/records$/);
  await expect(page.getByTestId('record-card')).toHaveCount(3);
  await expect(page.getByTestId('record-card').filter({ hasText: '3,600' })).toHaveCount(1);
  // Each card names its run (vessel, before or after stenting) and when it was acquired.
  for (const card of await page.getByTestId('record-card').all()) {
    await expect(card.getByRole('link')).toHaveText(/^(LAD|LCx|RCA) (pre|post)-PCI of \d\d\/\d\d\/\d\d$/);
    await expect(card.getByTestId('record-when')).toContainText(':');
  }

  // Previews are real images fetched with the sign-in token, not placeholders.
  const previews = page.getByRole('img', { name: /^(Angio|B-mode) preview$/ });
  await expect(previews).toHaveCount(6);
  for (const preview of await previews.all()) {
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);
    // Shown whole (letterboxed), so a non-square frame is never cropped.
    expect(await preview.evaluate((img: HTMLImageElement) => getComputedStyle(img).objectFit)).toBe('contain');
  }

  await page.getByRole('button', { name: 'Navigate back' }).click();
  await expect(page).toHaveURL(/\/patients(\?.*)?$/);
  await expect(page.getByRole('searchbox', { name: 'Search patients' })).toHaveValue('DEM-001');
});

test('a deep link to a records page works after a reload', async ({ page }) => {
  await signIn(page);
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  await expect(page.getByTestId('record-card')).toHaveCount(3);
  await page.evaluate(() => sessionStorage.removeItem('ivus.patientContext'));
  await page.reload();
  await expect(page.getByTestId('record-card')).toHaveCount(3);
  const context = await page.evaluate(() => JSON.parse(sessionStorage.getItem('ivus.patientContext') ?? 'null'));
  expect(context.patient.patientId).toBe('DEM-001');
  expect(context.patient.records).toHaveLength(3);
});

test('a deep link opened while signed out returns there after sign-in', async ({ page }) => {
  await signIn(page, clinician(), '/patients/DEM-001/records');
  await expect(page.getByTestId('record-card')).toHaveCount(3);
});

test('dark mode has a dark background and readable text', async ({ page }) => {
  await signIn(page);
  await page.getByRole('button', { name: 'Dark theme' }).click();
  await expect(page.locator('html')).toHaveClass(/sm-theme-dark/);
  await expect(page.getByTestId('patient-row').first()).toBeVisible();
  const shot = await page.screenshot();
  const stats = await page.evaluate(async (base64) => {
    const image = new Image();
    image.src = `data:image/png;base64,${base64}`;
    await image.decode();
    const canvas = new OffscreenCanvas(image.width, image.height);
    const context = canvas.getContext('2d')!;
    context.drawImage(image, 0, 0);
    const { data } = context.getImageData(0, 0, image.width, image.height);
    let sum = 0;
    let bright = 0;
    for (let i = 0; i < data.length; i += 4) {
      const luminance = 0.2126 * data[i]! + 0.7152 * data[i + 1]! + 0.0722 * data[i + 2]!;
      sum += luminance;
      if (luminance > 200) bright++;
    }
    return { mean: sum / (data.length / 4), brightShare: bright / (data.length / 4) };
  }, shot.toString('base64'));
  expect(stats.mean).toBeLessThan(50);
  expect(stats.brightShare).toBeGreaterThan(0.005);
  // The choice is remembered by this browser.
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/sm-theme-dark/);
});

test.describe('accessibility', () => {
  // The previews are held back with page.route, which does not see what the service worker fetches:
  // once it controls the page (it installs on the first screen, at its own pace) it prefetches the
  // previews itself and the "Loading" placeholders may never show. This test is about the screens,
  // not the worker, so it has none.
  test.use({ serviceWorkers: 'block' });

  test('patients, records and users screens have no serious accessibility violations', async ({ page }) => {
    await signIn(page, administrator());
    await expect(page.getByTestId('patient-row').first()).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    // Previews are held back first, so the "Loading" placeholders are checked as well as the images.
    let releasePreviews: () => void = () => {};
    const previewsReleased = new Promise<void>((resolve) => (releasePreviews = resolve));
    await page.route('**/previews/**', async (route) => {
      await previewsReleased;
      await route.continue();
    });
    await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
    await expect(page.getByTestId('record-card')).toHaveCount(3);
    await expect(page.getByRole('img', { name: 'B-mode preview: loading' }).first()).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    releasePreviews();
    await expect(page.getByRole('img', { name: 'B-mode preview', exact: true }).first()).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
    await page.goto(`${originOf('demo')}/users`);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    expect(await seriousAccessibilityViolations(page)).toEqual([]);
  });
});
