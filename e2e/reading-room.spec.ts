import { waitForStoredDraft } from './stored-drafts.ts';
import fs from 'node:fs';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { PDFDict, PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { OTHER_ULTRASOUND_LABEL } from '../src/domain/records.ts';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { originOf } from '../playwright.config.ts';
import { drawRuler } from './annotation-drawing.ts';
import { shortRecordHref } from './open-review.ts';
import { signIn } from './sign-in.ts';
import { boxOf, dicomToday, expectNoPageScroll, expectOnScreen, expectAccessibleInBothThemes, importThroughApi, intersects, useTheme } from './reading-room.ts';

/**
 * Issue 26 as a cardiologist meets it, on a 2560×1440 reading-room monitor and a 1366×768 laptop,
 * in the light and the dark theme, with axe (WCAG 2 A/AA) on every screen: the points already built
 * (other ultrasound, Play on a short record, no lost work, record cards and patients, panels that
 * follow the record, the report). One signed-in page per size; the theme is switched in the page.
 */

/*
 * Each size is read in one theme, switched with the app's own toolbar button as the session starts:
 * the reading room (dimmed) in dark, the laptop in light. Every screen is visited once per size and
 * checked with axe there in both themes (the other set on the page's root for the check), so each
 * point is checked at both sizes in both themes.
 */
const SIZES = [
  { name: 'reading-room monitor', width: 2560, height: 1440, theme: 'dark' },
  { name: 'laptop', width: 1366, height: 768, theme: 'light' },
] as const;

const FRAMES = 12;
const playback = (page: Page) => page.getByRole('complementary', { name: 'Playback toolbar' });
const leaveDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Save your annotation changes?' });
const restoreOffer = (page: Page) => page.getByRole('region', { name: 'Unsaved annotations' });

/** Plays until the slice moves on, then pauses: a short record plays once its few frames are in. */
async function playsAndPauses(page: Page): Promise<void> {
  const play = playback(page).getByRole('button', { name: 'Play', exact: true });
  await expect(play).not.toHaveAttribute('aria-disabled', 'true');
  await play.click();
  await expect(page.getByTestId('slice-indicator')).not.toHaveText(`Slice 1 / ${FRAMES}`);
  await playback(page).getByRole('button', { name: 'Pause', exact: true }).click();
}

/** The widths of the review's panels that are shown, and of the row they share. */
async function panelWidths(page: Page): Promise<{ row: number; panels: Record<string, number> }> {
  const row = (await boxOf(page.getByTestId('review-panels'))).width;
  const panels: Record<string, number> = {};
  for (const panel of await page.locator('[data-panel]').all()) panels[(await panel.getAttribute('data-panel'))!] = (await boxOf(panel)).width;
  return { row, panels };
}

/** The images a PDF's pages draw (the report's frames are embedded PNGs). */
async function pdfImageCount(bytes: Uint8Array): Promise<number> {
  const pdf = await PDFDocument.load(bytes);
  let images = 0;
  for (const page of pdf.getPages()) {
    const objects = page.node.Resources()?.lookupMaybe(PDFName.of('XObject'), PDFDict);
    for (const [, ref] of objects?.entries() ?? []) {
      const object = pdf.context.lookup(ref);
      if (object instanceof PDFRawStream && object.dict.get(PDFName.of('Subtype'))?.toString() === '/Image') images++;
    }
  }
  return images;
}

for (const [index, size] of SIZES.entries()) {
  test.describe(`${size.name} ${size.width}×${size.height}, ${size.theme} theme`, () => {
    // Each test visits a screen in both themes with axe, on a shared, loaded machine.
    test.describe.configure({ mode: 'serial', timeout: 120_000 });

    let context: BrowserContext;
    let page: Page;
    const stamp = `${Date.now()}-${size.width}`;
    const usPatient = `E2E-RR-US-${stamp}`;
    const xaPatient = `E2E-RR-XA-${stamp}`;
    let usReview = '';
    let xaReview = '';

    test.beforeAll(async ({ browser }) => {
      context = await browser.newContext({ baseURL: originOf('demo'), viewport: { width: size.width, height: size.height } });
      page = await context.newPage();
      await signIn(page);
      await useTheme(page, size.theme);
    });
    test.afterAll(async () => context.close());

    test('patients most recent first, found in any word order without accents; a loop that is not IVUS is asked about on /upload', async () => {
      const latest = page.getByRole('columnheader', { name: /Latest record/ });
      await expect(latest).toHaveAttribute('aria-sort', 'descending');
      await expect(page.getByTestId('patient-row').first()).toBeVisible();
      await expectNoPageScroll(page);
      await expectAccessibleInBothThemes(page, 'patients list', size.theme);

      // An obstetric loop (a GE machine, not IVUS), the newest record of the tenant: its upload is refused with a question.
      const loop = makeDicom({
        kind: 'us', pullbackRate: null, manufacturer: 'GE Healthcare', model: 'Voluson E10', rows: 120, columns: 160, frames: FRAMES,
        patientId: usPatient, patientName: 'Müller^Zoë', studyDate: dicomToday(), studyTime: `23595${index}`,
      });
      await page.getByRole('navigation', { name: 'Main toolbar' }).getByRole('button', { name: 'Upload', exact: true }).click();
      await expect(page.getByRole('heading', { level: 1, name: 'Upload' })).toBeVisible();
      await page.getByTestId('file-input').setInputFiles({ name: 'fetal-loop.dcm', mimeType: 'application/dicom', buffer: Buffer.from(loop.bytes) });
      await expectOnScreen(page, page.getByRole('button', { name: 'Upload 1 file' }));
      const question = page.getByRole('alertdialog', { name: 'This is not an IVUS pullback' });
      await page.getByRole('button', { name: 'Upload 1 file' }).click();
      await expect(question).toBeVisible({ timeout: 30_000 });
      await expect(question.getByRole('button', { name: 'Cancel: import nothing' })).toBeFocused();
      await expectOnScreen(page, question.getByRole('button', { name: 'Import as other ultrasound (view only)' }));
      await expectAccessibleInBothThemes(page, 'upload: not-IVUS question', size.theme);
      // Cancel imports nothing and keeps the file chosen; asked again, the uploader confirms.
      await question.getByRole('button', { name: 'Cancel: import nothing' }).click();
      await expect(question).toHaveCount(0);
      await expect(page.getByTestId('chosen-file')).toHaveCount(1);
      await page.getByRole('button', { name: 'Upload 1 file' }).click();
      await question.getByRole('button', { name: 'Import as other ultrasound (view only)' }).click();
      const item = page.getByTestId('batch-result').getByTestId('import-item');
      await expect(item.getByTestId('import-status')).toHaveText('Done', { timeout: 60_000 });
      usReview = (await item.getByRole('link', { name: 'Open the record' }).getAttribute('href'))!;
      await expectNoPageScroll(page);
      await expectAccessibleInBothThemes(page, 'upload page', size.theme);

      // The newest patient leads the list; "zoe muller" (other order, no accents) finds "Müller, Zoë".
      await page.goto('/patients');
      await expect(page.getByTestId('patient-row').first()).toContainText(usPatient);
      await page.getByRole('searchbox', { name: 'Search patients' }).fill('zoe muller');
      await expect(page.getByTestId('patient-row').filter({ hasText: usPatient })).toHaveCount(1);
    });

    test('record cards name the run, its time and its draft; thumbnails keep their aspect ratio', async () => {
      // Two angiography runs of one day, 96×64 (not square), with a Frame Time of 40 ms.
      const run = (description: string, time: string) =>
        makeDicom({
          kind: 'xa', rows: 64, columns: 96, frames: FRAMES, frameTimeMs: 40, patientId: xaPatient, patientName: 'Angio^Only',
          studyDate: dicomToday(), studyTime: time, seriesDescription: description,
        }).bytes;
      const first = await importThroughApi(page, run('LAD angio', '101500'), 'lad.dcm');
      await importThroughApi(page, run('RCA angio', '113000'), 'rca.dcm');
      xaReview = `/patients/${xaPatient}/records/${first}/review`;

      await page.goto(`/patients/${xaPatient}/records`);
      const cards = page.getByTestId('record-card');
      await expect(cards).toHaveCount(2);
      for (const [name, runOf] of [['LAD angio', 'run 1 of 2 that day'], ['RCA angio', 'run 2 of 2 that day']] as const) {
        const card = cards.filter({ hasText: name });
        await expect(card.getByRole('link')).toHaveText(new RegExp(`^${name}`));
        await expect(card.getByTestId('record-when')).toHaveText(new RegExp(`\\d\\d:\\d\\d.*${runOf}`));
        await expect(card.getByTestId('annotation-status')).toHaveText('Not annotated');
      }
      // The angiogram's preview is 3:2 like its frames, shown whole (letterboxed), never cropped to a square.
      const preview = cards.first().getByRole('img', { name: 'Angio preview', exact: true });
      await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
      const shape = await preview.evaluate((img: HTMLImageElement) => ({ ratio: img.naturalWidth / img.naturalHeight, fit: getComputedStyle(img).objectFit }));
      expect(shape.ratio).toBeCloseTo(96 / 64, 1);
      expect(shape.fit).toBe('contain');
      await expectNoPageScroll(page);
      await expectAccessibleInBothThemes(page, 'records list', size.theme);

      // The loop kept on the uploader's word says so on its card.
      await page.goto(`/patients/${usPatient}/records`);
      await expect(page.getByTestId('record-other-ultrasound')).toHaveText(OTHER_ULTRASOUND_LABEL);
    });

    test('a loop that is not IVUS: labelled, plays, no analysis or report; the absent angio gives its width; unsaved work is asked about', async () => {
      await page.goto(usReview);
      await expect(page.getByTestId('frames-status')).toHaveText(new RegExp(`${FRAMES} B-mode and 0 angio frames (loaded|downloaded)`), { timeout: 60_000 });
      await expect(page.getByTestId('imaging-kind')).toHaveText(OTHER_ULTRASOUND_LABEL);
      await expect(page.getByTestId('missing-series-note')).toHaveText('This record has no angiography run.');
      // The panels share 95 % of the row (the rest is room for the splitters); B-mode and L-mode alone had 65 %.
      const { row, panels } = await panelWidths(page);
      expect(Object.keys(panels).sort()).toEqual(['bmode', 'lmode']);
      expect(panels.bmode! + panels.lmode!).toBeGreaterThan(row * 0.9);
      await expect(page.getByRole('button', { name: /PDF|CSV|Send to PACS/ })).toHaveCount(0);
      await expect(page.getByText('Pullback analysis')).toHaveCount(0);
      for (const name of ['Play', 'Save', 'Navigate back'] as const) await expectOnScreen(page, page.getByRole('button', { name, exact: true }));
      await expectNoPageScroll(page, { vertical: true });
      await playsAndPauses(page);
      await expectAccessibleInBothThemes(page, 'review (other ultrasound)', size.theme);

      // A ruler, then Back: Save / Discard / Stay, all on screen; Stay keeps it.
      await drawRuler(page, [200, 256], [320, 256], { toolOff: true });
      await expect(page.getByTestId('label-card')).toHaveCount(1);
      await page.getByRole('button', { name: 'Navigate back' }).click();
      for (const name of ['Save', 'Discard', 'Stay'] as const) await expectOnScreen(page, leaveDialog(page).getByRole('button', { name, exact: true }));
      await expect(leaveDialog(page).getByRole('button', { name: 'Stay' })).toBeFocused();
      await expectAccessibleInBothThemes(page, 'review: leave question', size.theme);
      await leaveDialog(page).getByRole('button', { name: 'Stay' }).click();
      await expect(leaveDialog(page)).toHaveCount(0);
      await expect(page.getByTestId('label-card')).toHaveCount(1);

      // Gone without an answer (a reload): the card says a draft waits, and the review offers it beside the image.
      await waitForStoredDraft(page);
      page.once('dialog', (dialog) => void dialog.accept());
      await page.goto(`/patients/${usPatient}/records`);
      await expect(page.getByTestId('record-draft')).toHaveText('Unsaved draft in this browser');
      await expectAccessibleInBothThemes(page, 'records list with a draft', size.theme);
      await page.goto(usReview);
      await expect(restoreOffer(page)).toBeVisible();
      const bmode = page.getByTestId('panel-canvas-bmode');
      await expect(bmode).toBeVisible();
      const offerBox = await boxOf(restoreOffer(page));
      // The panels make room for the bar (the canvas follows its panel a frame later): the whole image stays on screen.
      await expect.poll(async () => {
        const box = await boxOf(bmode);
        return box.y + box.height;
      }).toBeLessThanOrEqual(size.height);
      const imageBox = await boxOf(bmode);
      expect(intersects(offerBox, imageBox), `offer ${JSON.stringify(offerBox)} over the B-mode ${JSON.stringify(imageBox)}`).toBe(false);
      await expectOnScreen(page, restoreOffer(page).getByRole('button', { name: 'Discard' }));
      await expectAccessibleInBothThemes(page, 'review: restore offer', size.theme);
      await restoreOffer(page).getByRole('button', { name: 'Discard' }).click();
      await expect(restoreOffer(page)).toHaveCount(0);
    });

    test('an angiography run alone fills the row, reads its frame rate from Frame Time, and plays', async () => {
      await page.goto(xaReview);
      await expect(page.getByTestId('frames-status')).toHaveText(new RegExp(`0 B-mode and ${FRAMES} angio frames (loaded|downloaded)`), { timeout: 60_000 });
      await expect(page.getByTestId('missing-series-note')).toHaveText(/pullback of this study has not arrived yet/);
      // The angio alone takes the whole share of the row, not its 30 %.
      const { row, panels } = await panelWidths(page);
      expect(Object.keys(panels)).toEqual(['angio']);
      expect(panels.angio!).toBeGreaterThan(row * 0.9);
      // 40 ms a frame is 25 frames/s, read from the file: not the assumed 30.
      await expect(page.getByTestId('acquisition-facts')).toContainText('25 frames/s');
      await expect(page.getByTestId('acquisition-facts')).not.toContainText(/frames\/s \(assumed\)/);
      await expectOnScreen(page, playback(page).getByRole('button', { name: 'Play', exact: true }));
      await expectNoPageScroll(page, { vertical: true });
      await playsAndPauses(page);
      await expectAccessibleInBothThemes(page, 'review (angiography alone)', size.theme);
    });

    test('an IVUS pullback: its report buttons on screen; the PDF carries its frames and the CSV the measurements', async () => {
      test.setTimeout(180_000);
      // The files do not depend on the screen: made once, on the laptop, where the frames are loaded for
      // the report's images; the monitor checks the layout over black panels and spares the download.
      const makesFiles = index === SIZES.length - 1;
      const href = await shortRecordHref(page);
      await page.goto(makesFiles ? href : `${href}?noImage=true`);
      if (makesFiles) await expect(page.getByTestId('frames-status')).toHaveText(/300 B-mode and 40 angio frames (loaded|downloaded)/, { timeout: 60_000 });
      await expect(page.getByTestId('pullback-plot')).toBeVisible({ timeout: 120_000 });
      const { row, panels } = await panelWidths(page);
      expect(Object.keys(panels).sort()).toEqual(['angio', 'bmode', 'lmode']);
      expect(panels.angio! + panels.bmode! + panels.lmode!).toBeGreaterThan(row * 0.9);
      for (const name of ['PDF report', 'Export CSV', 'Play', 'Save'] as const) await expectOnScreen(page, page.getByRole('button', { name, exact: true }));
      await expectNoPageScroll(page, { vertical: true });
      await expectAccessibleInBothThemes(page, 'review (IVUS pullback)', size.theme);
      if (!makesFiles) return;

      const measurementRows = async () => {
        const download = page.waitForEvent('download');
        await page.getByRole('button', { name: 'Export CSV' }).click();
        // Two tables, an empty line between: one row per slice, then one row per measurement.
        const [, measurements] = fs.readFileSync(await (await download).path(), 'utf8').slice(1).split('\r\n\r\n');
        const rows = measurements!.trim().split('\r\n');
        expect(rows[0]).toBe('measurement,slice,position_mm,kind,value,unit,note');
        return rows.slice(1);
      };
      // On a slice no other spec annotates, so that nobody's rulers lie where this one is drawn.
      await page.keyboard.press('End');
      for (let i = 0; i < 150; i++) await page.keyboard.press('ArrowLeft');
      await expect(page.getByTestId('slice-indicator')).toContainText('Slice 150 / 300');
      const before = await measurementRows();
      const cards = await page.getByTestId('label-card').count();
      await drawRuler(page, [150, 250], [350, 250], { toolOff: true });
      await expect(page.getByTestId('label-card')).toHaveCount(cards + 1);
      const after = await measurementRows();
      expect(after).toHaveLength(before.length + 1);
      const pdfDownload = page.waitForEvent('download');
      await page.getByRole('button', { name: 'PDF report' }).click();
      const pdf = fs.readFileSync(await (await pdfDownload).path());
      // The MLA frame and both reference frames, each as an image, and the L-mode with its markers.
      expect(await pdfImageCount(pdf)).toBe(4);
    });
  });
}
