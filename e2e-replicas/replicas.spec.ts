/**
 * One clinician's session through HAProxy in front of two replicas (e2e-replicas/cluster-setup.ts),
 * while one replica is SIGKILLed and restarted, twice: the browser never notices beyond a retry,
 * and nothing is lost or duplicated. Requests go round robin, so every page of the story is
 * served by both replicas, and after a kill by the survivor alone.
 */
import { expect, test, type Page } from '@playwright/test';
import { drawRuler } from '../e2e/annotation-drawing.ts';
import { shortRecordHref } from '../e2e/open-review.ts';
import { signIn, storedIdToken } from '../e2e/sign-in.ts';
import { makeDicom } from '../tests/support/dicom-fixtures.ts';
import { killBusiestReplica, killReplica, replicaStates, restartReplica, SKIP_VARIABLE } from './control.ts';

test.skip(!!process.env[SKIP_VARIABLE], `the replicas run needs HAProxy and PostgreSQL: ${process.env[SKIP_VARIABLE]}`);

const slice = (page: Page) => page.getByTestId('slice-indicator');
const drawnSlice = (page: Page) => page.getByTestId('panel-canvas-bmode');
const cards = (page: Page) => page.getByTestId('label-card');
const annotationsStatus = (page: Page) => page.getByTestId('annotations-status');
const FRAMES_LOADED = /300 B-mode and 40 angio frames (loaded|downloaded)/;

/** Saves with the Save button until the status shows `expectedVersion`: one more click if the first save failed (the app's own retry is the user's). */
async function save(page: Page, expectedVersion: number): Promise<void> {
  const button = page.getByRole('button', { name: 'Save' });
  await button.click();
  const saved = annotationsStatus(page).filter({ hasText: `Annotations v${expectedVersion}` });
  const failed = page.getByText('Annotations not saved');
  await expect(saved.or(failed)).toBeVisible({ timeout: 30_000 });
  if (await failed.isVisible()) {
    test.info().annotations.push({ type: 'retried save', description: (await failed.locator('..').textContent()) ?? '' });
    await button.click();
  }
  await expect(annotationsStatus(page)).toHaveText(`Annotations v${expectedVersion}`, { timeout: 30_000 });
  await expect(button).not.toHaveAttribute('data-attention', '');
}

/** GET through the balancer with the signed-in user's ID token, from the page (Node does not resolve *.localhost as Chromium does). */
async function apiGet<T>(page: Page, resource: string): Promise<T> {
  const authorization = `Bearer ${await storedIdToken(page)}`;
  const { status, body } = await page.evaluate(async ({ url, authorization }) => {
    const response = await fetch(url, { headers: { authorization } });
    return { status: response.status, body: await response.text() };
  }, { url: `/api/demo/${resource}`, authorization });
  expect(status, `GET ${resource}: ${body}`).toBe(200);
  return JSON.parse(body) as T;
}

type Versions = { versions: { version: number }[] };
type Manifest = { manifest: { ruler: { slice: number }[] } };

test('review, annotate and import through the balancer while a replica is killed and restarted: nothing is lost', async ({ page, browser }) => {
  const started = Date.now();
  const mark = (step: string) => console.info(`  ${((Date.now() - started) / 1000).toFixed(1)} s: ${step}`);
  // What the browser (pages and the frames service worker) saw go wrong: the balancer should hide every crash.
  const troubles: string[] = [];
  page.context().on('response', (response) => {
    if (response.status() >= 500) troubles.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  page.context().on('requestfailed', (request) => {
    if (!/ERR_ABORTED/.test(request.failure()?.errorText ?? '')) troubles.push(`${request.failure()?.errorText} ${request.method()} ${request.url()}`);
  });

  // 1. Both replicas up: sign in, open a record, scrub a few slices, draw a ruler, save.
  await signIn(page);
  const href = await shortRecordHref(page);
  const recordId = /\/records\/([^/]+)\/review/.exec(href)![1]!;
  const before = (await apiGet<Versions>(page, `records/${recordId}/annotations/versions`)).versions.length;
  await page.goto(href);
  await expect(drawnSlice(page)).toHaveAttribute('data-drawn-slice', '1', { timeout: 60_000 });
  for (const expected of [2, 3, 4]) {
    await page.keyboard.press('ArrowRight');
    await expect(slice(page)).toContainText(`Slice ${expected} / 300`);
  }
  await page.keyboard.press('Shift+ArrowRight');
  await expect(drawnSlice(page)).toHaveAttribute('data-drawn-slice', '14', { timeout: 30_000 });
  await expect(annotationsStatus(page)).not.toHaveText(/Loading/);
  // The version this story saves first: the one after the record's latest (data-version is 0 when none).
  const first = Number(await annotationsStatus(page).getAttribute('data-version')) + 1;
  await drawRuler(page, [100, 200], [400, 200], { toolOff: true });
  await expect(cards(page)).toHaveCount(1);
  await save(page, first);
  mark(`v${first} saved with both replicas; frames: ${await page.getByTestId('frames-status').textContent()}`);

  // 2. Replica a crashes while the review is open. Frames still load, another ruler is saved.
  await killReplica('a');
  mark('replica a killed');
  await expect(page.getByTestId('frames-status')).toHaveText(FRAMES_LOADED, { timeout: 90_000 });
  // "All … downloaded" speaks of the service worker's cache: every frame must be in the page too
  // (a chunk the page failed to load shows in frames-missing until a reload).
  await expect(page.locator('[aria-label="Frames loaded"]')).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('frames-missing')).toHaveCount(0);
  await page.keyboard.press('End');
  await expect(drawnSlice(page)).toHaveAttribute('data-drawn-slice', '300');
  await drawRuler(page, [100, 100], [100, 400], { toolOff: true });
  await expect(cards(page)).toHaveCount(1);
  await save(page, first + 1);
  mark(`v${first + 1} saved with replica a dead`);

  // The saved version is there after a reload (the session too: it is in the browser and the database).
  await page.reload();
  await expect(annotationsStatus(page)).toHaveText(`Annotations v${first + 1}`, { timeout: 30_000 });
  await expect(cards(page)).toHaveCount(0); // the reload starts at slice 1 again
  await page.keyboard.press('End');
  await expect(cards(page)).toHaveCount(1);
  await page.keyboard.press('Home');
  await page.keyboard.press('Shift+ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(slice(page)).toContainText('Slice 14 / 300');
  await expect(cards(page)).toHaveCount(1);
  mark(`v${first + 1} shown after a reload`);

  /** Both saved versions, each once, with their rulers on slices 14 and 300 (none applied twice, none lost). */
  const expectBothVersionsOnce = async () => {
    const versions = (await apiGet<Versions>(page, `records/${recordId}/annotations/versions`)).versions.map((v) => v.version);
    expect(versions.length).toBe(before + 2);
    expect(versions.filter((v) => v === first || v === first + 1).sort()).toEqual([first, first + 1]);
    const v1 = await apiGet<Manifest>(page, `records/${recordId}/annotations/versions/${first}`);
    const v2 = await apiGet<Manifest>(page, `records/${recordId}/annotations/versions/${first + 1}`);
    expect(v1.manifest.ruler.map((r) => r.slice)).toEqual([14]);
    expect(v2.manifest.ruler.map((r) => r.slice).sort((a, b) => a - b)).toEqual([14, 300]);
  };
  await expectBothVersionsOnce();

  // Signing in works with the replica that may have issued the first session dead: provider sessions,
  // interactions and keys are in the database.
  const other = await browser.newContext({ baseURL: test.info().project.use.baseURL, viewport: { width: 1280, height: 800 } });
  await signIn(await other.newPage());
  await other.close();
  mark('signed in again with replica a dead');

  // 3. Replica a comes back; a pullback is uploaded; the replica decoding it is killed mid-way, then restarted.
  await restartReplica('a');
  mark('replica a restarted');
  const patientId = `E2E-LB-${Date.now()}`;
  const fileName = 'balanced-pullback.dcm';
  // JPEG frames of a realistic size, so the decoding lasts long enough to be interrupted.
  const pullback = makeDicom({ kind: 'ivus', syntax: 'jpeg', rows: 512, columns: 512, frames: 600, distinctFrames: 6, patientId, patientName: 'Balancer^Bea' });
  await page.getByRole('navigation', { name: 'Main toolbar' }).getByRole('button', { name: 'Upload', exact: true }).click();
  await expect(page).toHaveURL(/\/upload$/);
  await page.getByTestId('file-input').setInputFiles({ name: fileName, mimeType: 'application/dicom', buffer: pullback.bytes });
  await page.getByRole('button', { name: 'Upload 1 file' }).click();
  await expect(page.getByTestId('chosen-file')).toHaveCount(0, { timeout: 60_000 });
  const item = page.getByTestId('import-item').filter({ hasText: fileName }).first();
  await expect(item).toHaveAttribute('data-status', 'processing');
  await expect(item.getByTestId('import-progress')).toHaveText(/Decoding frames: [1-9]/, { timeout: 30_000 });
  const victim = await killBusiestReplica();
  mark(`replica ${victim.name} killed while decoding (CPU s in 0.5 s: ${JSON.stringify(victim.cpuSeconds)}); ${await item.getByTestId('import-progress').textContent()}`);
  await restartReplica(victim.name);
  mark(`replica ${victim.name} restarted`);
  // Done, not Failed: the decoding goes on on a live replica (the durable job queue, whose dead-job
  // detection the setup shortens) rather than being rolled back 2 minutes later.
  await expect(item, 'the import whose replica was killed must finish elsewhere').toHaveAttribute('data-status', /done|failed/, { timeout: 90_000 });
  expect(await item.textContent(), 'the import whose replica was killed must finish, not fail').not.toContain('Failed');
  await expect(item.getByTestId('import-progress')).toHaveText(`600 frames imported for patient ${patientId}.`);
  mark('import done');
  await item.getByRole('link', { name: 'Open the record' }).click();
  await expect(page).toHaveURL(new RegExp(`/patients/${patientId}/records/[^/]+/review$`));
  await expect(page.getByTestId('frames-status')).toHaveText(/600 B-mode and \d+ angio frames/, { timeout: 30_000 });
  await expect(drawnSlice(page)).toHaveAttribute('data-drawn-slice', '1', { timeout: 30_000 });

  // 4. Nothing lost, nothing twice: both versions once each, the import and its record once each.
  await page.reload();
  await expect(drawnSlice(page)).toHaveAttribute('data-drawn-slice', '1', { timeout: 30_000 });
  expect((await replicaStates()).every((r) => r.alive)).toBe(true);
  await expectBothVersionsOnce();
  const imports = (await apiGet<{ imports: { fileNames: string[]; status: string; patientId: string | null }[] }>(page, 'imports')).imports;
  expect(imports.filter((i) => i.fileNames.includes(fileName)).map((i) => i.status)).toEqual(['done']);
  const { records } = await apiGet<{ records: unknown[] }>(page, `patients/${encodeURIComponent(patientId)}/records`);
  expect(records, `records of ${patientId}`).toHaveLength(1);

  await page.goto(href);
  await expect(annotationsStatus(page)).toHaveText(`Annotations v${first + 1}`, { timeout: 30_000 });
  mark(`all checked; the browser saw ${troubles.length} failed requests${troubles.length ? `:\n    ${troubles.join('\n    ')}` : ''}`);
  // HAProxy retries on the live replica what the dead one could not answer (cluster-setup.ts): no
  // 502/503 reaches the browser. Without `retry-on`, frame chunks got 503 in the second before the
  // health checks noticed (the page now asks again: src/web/api/api-client.ts, getBytes).
  expect(troubles.filter((t) => /^5\d\d /.test(t))).toEqual([]);
});
