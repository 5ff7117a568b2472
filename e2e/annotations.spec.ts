import { expect, test, type Page } from '@playwright/test';
import { originOf } from '../playwright.config.ts';
import { signIn } from './sign-in.ts';
import { bmodePoint, drawRuler, openAnnotationReview as openReview } from './annotation-drawing.ts';

/** The 300-frame record's review (a fresh one per test: each test uses its own record where it saves). */
async function reviewHref(page: Page, frames: RegExp): Promise<string> {
  await page.goto(`${originOf('demo')}/patients/DEM-001/records`);
  const link = page.getByTestId('record-card').filter({ hasText: frames }).getByRole('link');
  return `${originOf('demo')}${await link.getAttribute('href')}`;
}

async function spacing(page: Page): Promise<number> {
  return Number(await page.getByTestId('annotation-overlay').getAttribute('data-pixel-spacing'));
}

const cards = (page: Page) => page.getByTestId('label-card');

test('a ruler measures in mm, is saved as a version, and comes back exactly after a reload', async ({ page }) => {
  await signIn(page);
  const href = await reviewHref(page, /B-mode:\s*300 frames/);
  await openReview(page, href);
  await drawRuler(page, [100, 200], [400, 200]);
  const card = cards(page).filter({ has: page.getByTestId('card-unit').getByText('mm', { exact: true }) });
  await expect(card).toHaveCount(1);
  const expected = (300 * (await spacing(page))).toFixed(2);
  await expect(card.getByTestId('card-measurement')).toHaveText(expected);
  await expect(card.getByTestId('card-label')).toHaveText('A');

  const save = page.getByRole('button', { name: 'Save' });
  await expect(save).toHaveAttribute('data-attention', '');
  await save.click();
  await expect(page.getByText('Annotations saved')).toBeVisible();
  await expect(save).not.toHaveAttribute('data-attention', '');
  await expect(page.getByTestId('annotations-status')).toHaveText(/Annotations v\d+/);

  // Drag the ruler's end: the measurement follows; undo brings the old one back.
  const end = await bmodePoint(page, 400, 200);
  await page.getByRole('button', { name: 'Ruler', exact: true }).click(); // tool off: a drag edits
  await page.mouse.move(end.x, end.y);
  await page.mouse.down();
  await page.mouse.move(end.x - 50 * end.scale, end.y, { steps: 5 });
  await page.mouse.up();
  const sp = await spacing(page);
  // The drag's screen distance rounds to whole pixels: a few image pixels either way.
  await expect.poll(async () => Number(await card.getByTestId('card-measurement').textContent())).toBeCloseTo(250 * sp, 1);
  await page.keyboard.press('Control+z');
  await expect(card.getByTestId('card-measurement')).toHaveText(expected);
  await expect(save).not.toHaveAttribute('data-attention', '');

  await page.reload();
  await expect(page.getByTestId('annotations-status')).toHaveText(/Annotations v\d+/);
  await expect(cards(page)).toHaveCount(1);
  await expect(cards(page).getByTestId('card-measurement')).toHaveText(expected);
  // The L-mode view marks the annotated slice.
  await expect(page.getByTestId('annotated-slice-marks')).toHaveAttribute('data-slices', '1');
  // Another slice has none.
  await page.keyboard.press('ArrowRight');
  await expect(cards(page)).toHaveCount(0);
});

test('area, angle and text annotations; delete from the card menu; undo and redo', async ({ page }) => {
  await signIn(page);
  await openReview(page, await reviewHref(page, /B-mode:\s*300 frames/));
  await page.keyboard.press('End');

  // Area: a freehand square of 100 x 100 image pixels.
  await page.getByRole('button', { name: 'Area', exact: true }).click();
  const corners: [number, number][] = [[150, 150], [250, 150], [250, 250], [150, 250], [150, 150]];
  const first = await bmodePoint(page, 150, 150);
  await page.mouse.move(first.x, first.y);
  await page.mouse.down();
  for (const [x, y] of corners.slice(1)) {
    const p = await bmodePoint(page, x, y);
    await page.mouse.move(p.x, p.y, { steps: 10 });
  }
  await page.mouse.up();
  const area = cards(page).filter({ has: page.getByText('mm²') });
  await expect(area).toHaveCount(1);
  const square = 100 * 100 * (await spacing(page)) ** 2;
  const shownArea = Number(await area.getByTestId('card-measurement').textContent());
  // A smooth curve through 8 points of a square cuts its corners a little.
  expect(shownArea).toBeGreaterThan(square * 0.8);
  expect(shownArea).toBeLessThan(square * 1.1);

  // Angle: created at the image centre as 90 degrees.
  await page.getByRole('button', { name: 'Angle', exact: true }).click();
  const somewhere = await bmodePoint(page, 400, 400);
  await page.mouse.click(somewhere.x, somewhere.y);
  const angle = cards(page).filter({ has: page.getByText('°') });
  await expect(angle.getByTestId('card-measurement')).toHaveText('90');

  // Text: a click makes an empty note whose input takes the keyboard.
  await page.getByRole('button', { name: 'Text', exact: true }).click();
  const at = await bmodePoint(page, 60, 450);
  await page.mouse.click(at.x, at.y);
  const note = page.getByPlaceholder('Type your note');
  await expect(note).toBeFocused();
  await note.pressSequentially('calcified plaque');
  await note.press('Enter');
  await expect(cards(page)).toHaveCount(3);
  const labels = await cards(page).evaluateAll((nodes) => nodes.map((n) => n.getAttribute('data-annotation-id')));
  expect(labels.map((id) => id!.split('-').slice(1, 3).join('-')).sort()).toEqual(['angle-B', 'area-A', 'text-C']);

  // Delete the angle from its card's menu; undo brings it back, redo removes it again.
  await angle.getByRole('button', { name: /Menu of Angle/ }).click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await expect(cards(page)).toHaveCount(2);
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('Control+z');
  await expect(cards(page)).toHaveCount(3);
  await page.keyboard.press('Control+Shift+z');
  await expect(cards(page)).toHaveCount(2);

  // Hide the area's label from its menu.
  await area.getByRole('button', { name: /Menu of Area/ }).click();
  await page.getByRole('menuitem', { name: 'Hide label' }).click();
  await expect(area.getByTestId('card-label')).toHaveCount(0);
});

test('leaving with unsaved changes asks first; a conflicting save offers to keep both', async ({ page, browser }) => {
  await signIn(page);
  const href = await reviewHref(page, /B-mode:\s*3,600 frames/);
  await openReview(page, href);
  // Inside the field of view: the image's top-left corner holds the frame readout and its switch.
  await drawRuler(page, [150, 250], [250, 250]);
  await expect(cards(page)).toHaveCount(1);

  // Leaving asks; staying keeps the work.
  await page.getByRole('button', { name: 'Upload' }).click();
  const leave = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(leave).toContainText('Save your annotation changes?');
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(page).toHaveURL(/\/review/);
  await expect(cards(page)).toHaveCount(1);

  // Someone else saves this record meanwhile.
  const other = await (await browser.newContext({ viewport: { width: 1600, height: 900 } })).newPage();
  await signIn(other);
  await other.goto(`${originOf('demo')}/patients/DEM-001/records`);
  await openReview(other, href);
  await drawRuler(other, [300, 300], [300, 400]);
  await other.getByRole('button', { name: 'Save' }).click();
  await expect(other.getByText('Annotations saved')).toBeVisible();
  await other.context().close();

  // Our save now conflicts: keep ours as the next version.
  await page.getByRole('button', { name: 'Save' }).click();
  const conflict = page.getByRole('alertdialog').or(page.getByRole('dialog'));
  await expect(conflict).toContainText('changed meanwhile');
  await conflict.getByRole('button', { name: 'Keep mine as the next version' }).click();
  await expect(page.getByText('Annotations saved')).toBeVisible();
  const version = Number(await page.getByTestId('annotations-status').getAttribute('data-version'));
  expect(version).toBeGreaterThanOrEqual(2);
});

test('a plain click on a handle, or with the contour tool on a control point, changes nothing', async ({ page }) => {
  // The server detects the lumen on every frame before the contour tool has a contour.
  test.setTimeout(150_000);
  await signIn(page);
  await openReview(page, await reviewHref(page, /B-mode:\s*300 frames/));
  await page.keyboard.press('Home');
  await drawRuler(page, [60, 470], [200, 470]);
  const save = page.getByRole('button', { name: 'Save' });
  await save.click();
  await expect(page.getByText('Annotations saved')).toBeVisible();
  await expect(save).not.toHaveAttribute('data-attention', '');

  // Without a tool: a click on the ruler's end selects it, and a press that wobbles under the drag threshold is a click too.
  await page.getByRole('button', { name: 'Ruler', exact: true }).click();
  const card = cards(page).filter({ has: page.getByTestId('card-label').getByText('B', { exact: true }) });
  const length = await card.getByTestId('card-measurement').textContent();
  const end = await bmodePoint(page, 200, 470);
  await page.mouse.click(end.x, end.y);
  await expect(page.getByTestId('annotation-overlay')).toHaveAttribute('data-tool-state', 'selecting');
  await page.mouse.move(end.x, end.y);
  await page.mouse.down();
  await page.mouse.move(end.x + 2, end.y + 1);
  await page.mouse.up();
  await expect(page.getByTestId('annotation-overlay')).toHaveAttribute('data-tool-state', 'selecting');
  await expect(card.getByTestId('card-measurement')).toHaveText(length!);
  await expect(save).not.toHaveAttribute('data-attention', '');

  // The contour tool: a click on a control point is not a correction.
  await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 90_000 });
  await page.getByRole('button', { name: 'Contour', exact: true }).click();
  const layer = page.getByTestId('contour-layer');
  await expect(layer).toHaveAttribute('data-source', 'auto');
  const points = page.getByTestId('contour-point');
  const centres = await points.evaluateAll((nodes) => nodes.map((n) => Number(n.getAttribute('cx'))));
  const rightmost = centres.reduce((best, x, i) => (x > centres[best]! ? i : best), 0);
  const handle = (await points.nth(rightmost).boundingBox())!;
  await page.mouse.click(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await expect(page.getByTestId('annotation-overlay')).toHaveAttribute('data-tool-state', 'idle');
  await expect(layer).toHaveAttribute('data-source', 'auto');
  await expect(save).not.toHaveAttribute('data-attention', '');
});
