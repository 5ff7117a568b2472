/**
 * No figure before the saved annotations are in: on a record whose saved review corrected the MLA
 * frame's lumen by hand, the review's figures wait for that correction. While the annotations'
 * answer is held back (page.route) the results block says "Loading saved corrections…", shows no
 * MLA and offers no export; once released it shows the corrected MLA, and the uncorrected one has
 * never been on screen. A failed load holds the figures back with a Retry that brings them.
 * The record is this spec's own (imported here), so no shared demo record is changed.
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { setKeyFrame } from '../src/domain/annotations/contour-edits.ts';
import { emptyManifest, type Point } from '../src/domain/annotations/manifest.ts';
import { renderBmodeFrame } from '../src/domain/synthetic/bmode-frame.ts';
import { createPullbackModel } from '../src/domain/synthetic/pullback-model.ts';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { importThroughApi } from './reading-room.ts';
import { signIn, storedIdToken } from './sign-in.ts';

// page.route does not see what the service worker fetches: blocked, every request goes by the page.
test.use({ serviceWorkers: 'block' });

const FRAMES = 90;
const SIZE = 256;
const SPACING_MM = 0.02;

/** A small coronary pullback from the demo's generator, as an IVUS file. */
function pullbackFile(patientId: string): Uint8Array {
  const model = createPullbackModel({ seed: 4242, frameCount: FRAMES, frameSizePx: SIZE, pixelSpacingMm: SPACING_MM });
  const frames = Array.from({ length: FRAMES }, (_, f) => Uint8Array.from(renderBmodeFrame(model, f)));
  const pixel = (f: number, x: number, y: number) => frames[f]![y * SIZE + x]!;
  return makeDicom({ kind: 'ivus', rows: SIZE, columns: SIZE, frames: FRAMES, patientId, patientName: 'Saved^Correction', frameTimeMs: 33.333333, pullbackRate: 0.5, pixelSpacing: [SPACING_MM, SPACING_MM], pixel }).bytes;
}

/** A circle round the frame's centre, in image pixels. */
const circle = (radiusPx: number): Point[] =>
  Array.from({ length: 24 }, (_, i) => ({ x: SIZE / 2 + radiusPx * Math.cos((i / 24) * 2 * Math.PI), y: SIZE / 2 + radiusPx * Math.sin((i / 24) * 2 * Math.PI) }));

/** Saves a manifest as the record's next version through the API, as the review's Save does. */
async function saveManifest(page: Page, patientId: string, recordId: string, manifest: unknown): Promise<void> {
  const token = await storedIdToken(page);
  const status = await page.evaluate(
    async ([t, patient, record, json]) => {
      const form = new FormData();
      form.append('recordId', record);
      form.append('patientId', patient);
      form.append('baseVersion', '0');
      form.append('file', new Blob([json], { type: 'application/json' }), 'manifest.json');
      return (await fetch('/api/demo/records?status=new', { method: 'POST', body: form, headers: { Authorization: `Bearer ${t}` } })).status;
    },
    [token, patientId, recordId, JSON.stringify(manifest)] as const,
  );
  expect(status).toBe(201);
}

/** Every text the MLA tile has shown since the page loaded (a MutationObserver set before the app runs). */
const MLA_SEEN_SCRIPT = () => {
  const seen: string[] = [];
  (window as unknown as { mlaSeen: string[] }).mlaSeen = seen;
  const note = () => {
    const text = document.querySelector('[data-testid="result-mla-figures"]')?.textContent;
    if (text && seen.at(-1) !== text) seen.push(text);
  };
  new MutationObserver(note).observe(document, { subtree: true, childList: true, characterData: true });
};
const mlaSeen = (page: Page) => page.evaluate(() => (window as unknown as { mlaSeen: string[] }).mlaSeen);

/** Holds the record's annotations' answers until released; `fail` answers the next one with a server error instead. */
function annotationsGate(page: Page) {
  let release: () => void = () => {};
  let released = new Promise<void>((resolve) => (release = resolve));
  let failNext = false;
  const handler = async (route: Route) => {
    if (failNext) {
      failNext = false;
      return route.fulfill({ status: 500, json: { type: 'about:blank', title: 'Internal Server Error', status: 500, detail: 'The annotations store did not answer' } });
    }
    await released;
    return route.continue();
  };
  return {
    install: () => page.route(/\/api\/demo\/records\/[^/]+\/annotations(\?.*)?$/, handler),
    hold: () => (released = new Promise<void>((resolve) => (release = resolve))),
    release: () => release(),
    failNext: () => (failNext = true),
  };
}

const MLA = /^MLA\s*\d+\.\d\d mm²/;

test('the figures wait for the saved corrections: never the uncorrected MLA, the corrected one once they are in', async ({ page }) => {
  // The server detects the borders of the imported pullback on the first open.
  test.setTimeout(240_000);
  const patientId = `E2E-ANN-FIRST-${Date.now()}`;
  await signIn(page);
  const recordId = await importThroughApi(page, pullbackFile(patientId), 'pullback.dcm');
  const review = `/patients/${patientId}/records/${recordId}/review`;

  // The detector's MLA, with nothing saved yet.
  await page.goto(review);
  const mlaTile = page.getByTestId('result-mla-figures');
  await expect(mlaTile).toHaveText(MLA, { timeout: 180_000 });
  const uncorrectedText = (await mlaTile.textContent())!;
  const mlaSlice = Number(await page.getByTestId('result-mla').getAttribute('data-slice'));
  const areaMm2 = Number(/(\d+\.\d\d) mm²/.exec(uncorrectedText)![1]);

  // The saved review widens the MLA frame's lumen by hand (a key frame carried 2 mm each way).
  const radiusPx = (1.3 * Math.sqrt(areaMm2 / Math.PI)) / SPACING_MM;
  await saveManifest(page, patientId, recordId, setKeyFrame(emptyManifest(), mlaSlice, circle(radiusPx), 'lumen', 2));

  // Opened again with the annotations' answer held back: the borders come, the figures wait.
  const gate = annotationsGate(page);
  await gate.install();
  await page.addInitScript(MLA_SEEN_SCRIPT);
  await page.goto(review);
  const held = page.getByTestId('corrections-status');
  await expect(held).toHaveText('Loading saved corrections…', { timeout: 120_000 });
  await expect(page.getByTestId('results-held')).toHaveText('Loading saved corrections…');
  await expect(page.getByTestId('result-mla-figures-value')).toHaveText('—');
  await expect(page.getByRole('button', { name: 'Export CSV' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'PDF report' })).toHaveCount(0);

  gate.release();
  await expect(held).toHaveCount(0);
  await expect(mlaTile).toHaveText(MLA);
  const correctedText = (await mlaTile.textContent())!;
  expect(correctedText).not.toBe(uncorrectedText);
  // The observer saw the tile (so it would have seen the uncorrected MLA, had it shown).
  expect(await mlaSeen(page)).toContain(correctedText);
  expect(await mlaSeen(page)).not.toContain(uncorrectedText);
  await expect(page.getByRole('button', { name: 'Export CSV' })).toBeVisible();

  // A failed load: held back, said so, with a Retry that brings the corrected figures.
  gate.hold();
  gate.failNext();
  await page.reload();
  await expect(held).toContainText('Figures held back: the saved corrections could not be loaded', { timeout: 120_000 });
  await expect(page.getByTestId('result-mla-figures-value')).toHaveText('—');
  await expect(page.getByRole('button', { name: 'Export CSV' })).toHaveCount(0);
  await held.getByRole('button', { name: 'Retry' }).click();
  await expect(held).toHaveText('Loading saved corrections…');
  gate.release();
  await expect(mlaTile).toHaveText(correctedText);
  expect(await mlaSeen(page)).not.toContain(uncorrectedText);
});
