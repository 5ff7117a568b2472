/**
 * Issue 28, image-based gating: a pullback imaged over a beating heart is gated on request from its
 * frames alone (one end-diastolic frame per cycle), the strip shows the gated L-mode, the figures
 * say they come from the gated frames, and E / Shift+E step end-diastole to end-diastole.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { gatingCase } from '../src/domain/synthetic/gating-cases.ts';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { importThroughApi } from './reading-room.ts';
import { signIn } from './sign-in.ts';

/** Six seconds at 30 frames/s: enough cycles for a heart rate from 35 bpm. */
const FRAMES = 180;
const SIZE = 128;

/** The generator's beating pullback (100 bpm, known end-diastoles) at half its size, as an IVUS file. */
function beatingPullback(patientId: string) {
  const pullback = gatingCase(3102, 100, 'clean');
  const full = pullback.model.frameSizePx;
  const frames = Array.from({ length: FRAMES }, (_, f) => pullback.render(f));
  const pixel = (f: number, x: number, y: number) => {
    const frame = frames[f]!;
    const at = 2 * y * full + 2 * x;
    return Math.round((frame[at]! + frame[at + 1]! + frame[at + full]! + frame[at + full + 1]!) / 4);
  };
  const dicom = makeDicom({ kind: 'ivus', rows: SIZE, columns: SIZE, frames: FRAMES, patientId, patientName: 'Beating^Heart', frameTimeMs: 33.333333, pullbackRate: 0.5, pixelSpacing: [0.05, 0.05], pixel });
  return { bytes: dicom.bytes, truth: pullback.endDiastolicFrames };
}

async function shownSlice(page: Page): Promise<number> {
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
  return Number(/^Slice (\d+) \//.exec((await page.getByTestId('slice-indicator').textContent()) ?? '')?.[1]);
}

test('a beating pullback is gated on request: gated L-mode, figures said to be gated, E steps end-diastole to end-diastole', async ({ page }) => {
  test.setTimeout(240_000);
  const patientId = `E2E-GATE-${Date.now()}`;
  const { bytes, truth } = beatingPullback(patientId);
  await signIn(page);
  const recordId = await importThroughApi(page, bytes, 'pullback.dcm');
  await page.goto(`/patients/${patientId}/records/${recordId}/review`);
  await expect(page.getByTestId('frames-status')).toHaveText(new RegExp(`${FRAMES} B-mode and 0 angio frames (loaded|downloaded)`), { timeout: 60_000 });

  const toggle = page.getByRole('button', { name: 'Gated', exact: true });
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('gated-figures-note')).toHaveCount(0);
  await toggle.click();
  await expect(toggle).toHaveAttribute('aria-pressed', 'true');
  const status = page.getByTestId('gating-status');
  await expect(status).toHaveText(/^\d+ gated frames \(end-diastole\), about \d+ bpm$/, { timeout: 60_000 });
  const bpm = Number(/about (\d+) bpm/.exec((await status.textContent()) ?? '')?.[1]);
  expect(bpm).toBeGreaterThan(85);
  expect(bpm).toBeLessThan(115);
  await expect(page.getByTestId('gated-figures-note')).toHaveText(/^Gated: L-mode and figures from \d+ end-diastolic frames/);
  await expect(page.getByTestId('lmode-strip-image')).toHaveAttribute('data-gated', 'true');
  // The border lines over both L-mode views follow the gated frames with the image under them.
  await expect(page.getByTestId('lmode-strip-borders-canvas')).toHaveAttribute('data-gated', 'true');
  await expect(page.getByTestId('lmode-panel-borders-canvas')).toHaveAttribute('data-gated', 'true');

  // While gated the CSV adds the gated frames and results, named as gated (and only then: see below).
  const exportedCsv = async () => {
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click({ timeout: 120_000 });
    return fs.readFileSync(await (await download).path(), 'utf8');
  };
  const gatedCsv = await exportedCsv();
  expect(gatedCsv).toContain('\r\ngated_slice,gated_position_mm,gated_lumen_area_mm2,gated_vessel_area_mm2,gated_plaque_burden_percent\r\n');
  expect(gatedCsv).toMatch(/\r\ngated_mla,[\d.]*,mm2,/);
  expect(gatedCsv).toMatch(new RegExp(`\\r\\ngated_heart_rate,${bpm},bpm,`));

  // E steps to the next end-diastole (within a frame of the generator's own), Shift+E back.
  const nearTruth = (slice: number) => truth.some((frame) => Math.abs(frame + 1 - slice) <= 1);
  await page.keyboard.press('e');
  const first = await shownSlice(page);
  expect(nearTruth(first)).toBe(true);
  await page.keyboard.press('e');
  const second = await shownSlice(page);
  expect(nearTruth(second)).toBe(true);
  expect(second - first).toBeGreaterThan(12);
  await page.getByRole('button', { name: 'Previous gated frame' }).click();
  expect(await shownSlice(page)).toBe(first);

  // Shift+G turns it off: the strip and the figures are those of every frame again.
  await page.keyboard.press('Shift+G');
  await expect(toggle).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByTestId('gated-figures-note')).toHaveCount(0);
  await expect(page.getByTestId('lmode-strip-image')).toHaveAttribute('data-gated', 'false');
  await expect(page.getByTestId('lmode-panel-borders-canvas')).toHaveAttribute('data-gated', 'false');
  expect(await exportedCsv()).not.toContain('gated_');
});

test('the demo pullback, imaged without a beating heart, answers "no cardiac cycle" and keeps its figures', async ({ page }) => {
  await signIn(page);
  await page.goto('/patients/DEM-001/records');
  const link = page.getByTestId('record-card').filter({ hasText: /B-mode:\s*300 frames/ }).getByRole('link');
  await page.goto((await link.getAttribute('href'))!);
  await expect(page.getByTestId('frames-status')).toHaveText(/300 B-mode and 40 angio frames (loaded|downloaded)/, { timeout: 60_000 });
  await page.getByRole('button', { name: 'Gated', exact: true }).click();
  await expect(page.getByTestId('gating-status')).toHaveText(/^No cardiac cycle found: .+\. Figures on all frames\.$/, { timeout: 60_000 });
  await expect(page.getByTestId('gated-figures-note')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Next gated frame' })).toHaveCount(0);
});
