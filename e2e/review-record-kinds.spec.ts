import { expect, test, type Page } from '@playwright/test';
import { OTHER_ULTRASOUND_LABEL } from '../src/domain/records.ts';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { signIn } from './sign-in.ts';
import { importThroughApi } from './reading-room.ts';

const FRAMES = 12;

/** Imports one file through the API as the signed-in user (confirming other ultrasound); answers its record. */
const importFile = (page: Page, bytes: Uint8Array): Promise<string> => importThroughApi(page, bytes, 'loop.dcm', { confirmOtherUltrasound: true });

test('a loop that is not IVUS, imported on the uploader’s word, opens to view, measure and play only', async ({ page }) => {
  const patientId = `E2E-US-${Date.now()}`;
  const loop = makeDicom({
    kind: 'us', pullbackRate: null, manufacturer: 'GE Healthcare', model: 'Voluson E10',
    rows: 120, columns: 160, frames: FRAMES, patientId, patientName: 'Fetal^Loop',
  });
  await signIn(page);
  const recordId = await importFile(page, loop.bytes);

  await page.goto(`/patients/${patientId}/records/${recordId}/review`);
  await expect(page.getByTestId('frames-status')).toHaveText(new RegExp(`${FRAMES} B-mode and 0 angio frames (loaded|downloaded)`), { timeout: 60_000 });
  await expect(page.getByTestId('imaging-kind')).toHaveText(OTHER_ULTRASOUND_LABEL);
  // No angiography run: its panel is collapsed (B-mode and L-mode take the row), and one line says so.
  await expect(page.getByTestId('missing-series-note')).toHaveText('This record has no angiography run.');
  await expect(page.locator('[data-panel="angio"]')).toHaveCount(0);
  await expect(page.locator('[data-panel="bmode"]')).toBeVisible();

  // Nothing an IVUS analysis would make: no contour tool, no pullback analysis, no report, no PACS.
  const tools = page.getByRole('group', { name: 'Annotation tools' });
  await expect(tools.getByRole('button', { name: 'Ruler', exact: true })).toBeVisible();
  await expect(tools.getByRole('button', { name: 'Contour', exact: true })).toHaveCount(0);
  await expect(page.getByText('Pullback analysis')).toHaveCount(0);
  await expect(page.getByRole('button', { name: /PDF|CSV|Send to PACS/ })).toHaveCount(0);

  // A ruler is drawn and measured across the middle of the image.
  await tools.getByRole('button', { name: 'Ruler', exact: true }).click();
  const box = (await page.getByTestId('annotation-overlay').boundingBox())!;
  const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
  const half = Math.min(box.width, box.height) * 0.2;
  await page.mouse.click(centre.x - half, centre.y);
  await page.mouse.move(centre.x, centre.y);
  await page.mouse.click(centre.x + half, centre.y);
  const card = page.getByTestId('label-card');
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId('card-measurement')).toHaveText(/^\d+(\.\d+)?$/);

  // Play needs min(100, frame count) frames: a 12-frame loop plays once its 12 are in.
  const playback = page.getByRole('complementary', { name: 'Playback toolbar' });
  await expect(playback.getByRole('button', { name: 'Play', exact: true })).not.toHaveAttribute('aria-disabled', 'true');
  await playback.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.getByTestId('slice-indicator')).not.toHaveText(`Slice 1 / ${FRAMES}`);
  await playback.getByRole('button', { name: 'Pause', exact: true }).click();
});

test('an angiography run without its pullback fills the row, says why, and plays', async ({ page }) => {
  const patientId = `E2E-XA-${Date.now()}`;
  const run = makeDicom({ kind: 'xa', rows: 64, columns: 64, frames: FRAMES, patientId, patientName: 'Angio^Only' });
  await signIn(page);
  const recordId = await importFile(page, run.bytes);

  await page.goto(`/patients/${patientId}/records/${recordId}/review`);
  await expect(page.getByTestId('frames-status')).toHaveText(new RegExp(`0 B-mode and ${FRAMES} angio frames (loaded|downloaded)`), { timeout: 60_000 });
  await expect(page.getByTestId('missing-series-note')).toHaveText(/pullback of this study has not arrived yet/);
  await expect(page.locator('[data-panel="angio"]')).toBeVisible();
  await expect(page.locator('[data-panel="bmode"], [data-panel="lmode"]')).toHaveCount(0);

  // Its run plays (Play used to wait for 100 B-mode images that would never come), at its own frame rate.
  const playback = page.getByRole('complementary', { name: 'Playback toolbar' });
  await expect(playback.getByRole('button', { name: /^Playback speed: Real time/ })).toBeVisible();
  await playback.getByRole('button', { name: 'Play', exact: true }).click();
  await expect(page.getByTestId('slice-indicator')).not.toHaveText(`Slice 1 / ${FRAMES}`);
  await playback.getByRole('button', { name: 'Pause', exact: true }).click();
});
