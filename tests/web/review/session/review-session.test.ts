import { afterEach, describe, expect, it, vi } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { writePatientContext, writeRecordContext } from '../../../../src/web/session/context-store.ts';
import { ReviewSession } from '../../../../src/web/review/session/review-session.ts';
import { isPlaying } from '../../../../src/web/review/playback/playback.machine.ts';
import { DEFAULT_BRIGHTNESS_CONTRAST } from '../../../../src/web/review/view/brightness-contrast.ts';
import type { ToastService } from '../../../../src/web/ui/toast.tsx';
import { fakeApi } from '../../render.tsx';
import { ONE_RECORD_PATIENT } from '../../review-fixture.ts';
import { imageStoreFor, loadBmodeFrames } from '../playback/image-store-fixture.ts';

const SAVED_AT = '2026-11-01T00:00:00Z';

/** The signals of the annotations requests, to see them aborted. */
const annotationRequests: AbortSignal[] = [];

function server() {
  return fakeApi((url, init) => {
    if (url.pathname === '/api/demo/records/R-70/annotations') {
      if (init?.signal) annotationRequests.push(init.signal);
      return Response.json({ version: 2, manifest: emptyManifest(), savedBy: 'eli@demo.test', savedAt: SAVED_AT });
    }
    if (url.pathname === '/api/demo/records' && init?.method === 'POST') {
      return Response.json({ version: 3, savedBy: 'dana@demo.test', savedAt: SAVED_AT, annotationStatus: 'saved' });
    }
    return Response.json({ error: 'not_found', message: 'Not found.' }, { status: 404 });
  });
}

function sessionWith({ bmodeFrames = 150 } = {}) {
  const { client, fetchMock } = server();
  const images = imageStoreFor({ bmodeCount: 150 });
  loadBmodeFrames(images, bmodeFrames);
  const toast: ToastService = { show: vi.fn(() => 'toast'), close: vi.fn() };
  const session = new ReviewSession({ patientId: 'P-7', recordId: 'R-70', api: client, toast, confirm: vi.fn(async () => true), images });
  return { session, fetchMock, toast };
}

const opened: ReviewSession[] = [];
function open(session: ReviewSession): ReviewSession {
  session.open();
  opened.push(session);
  return session;
}

afterEach(() => {
  opened.splice(0).forEach((session) => session.dispose());
  annotationRequests.splice(0);
  sessionStorage.clear();
});

describe('the slice cursor', () => {
  it('clamps to the record, steps stop at either end, and a playback tick is counted', () => {
    const { session } = sessionWith();
    const { cursor, images } = session;
    cursor.setSlice(400);
    expect(images.getSnapshot().slice).toBe(150);
    cursor.step(-7);
    expect(images.getSnapshot().slice).toBe(143);
    cursor.step(-1000);
    expect(images.getSnapshot().slice).toBe(1);
    cursor.playTo(12);
    expect(images.getSnapshot()).toMatchObject({ slice: 12, playCounter: 1 });
  });

  it('is the only writer of the slice in the web app: no other module sets the image store’s slice', () => {
    const root = join(import.meta.dirname, '../../../../src/web');
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.tsx?$/.test(name)) files.push(path);
      }
    };
    walk(root);
    // The store is held as `store`, `images` or `imageStore` wherever it is passed around.
    const writers = files.filter((path) => /\b(store|images|imageStore)\.setSlice\(/.test(readFileSync(path, 'utf8')));
    expect(writers.map((path) => path.slice(root.length + 1))).toEqual(['review/frames/slice-cursor.ts']);
  });
});

describe('the review session', () => {
  it('plays through its cursor: every tick moves the slice by the cursor', async () => {
    const { session } = sessionWith();
    open(session);
    const playTo = vi.spyOn(session.cursor, 'playTo');
    session.playback.actor.send({ type: 'playback.manualResume' });
    await vi.waitFor(() => expect(session.images.getSnapshot().slice).toBeGreaterThan(2));
    expect(playTo).toHaveBeenCalled();
    expect(session.images.getSnapshot().playCounter).toBe(playTo.mock.calls.length);
  });

  it('on dispose stops playback, releases the frames and drops the annotations request', () => {
    const { session } = sessionWith();
    open(session);
    session.playback.actor.send({ type: 'playback.manualResume' });
    expect(isPlaying(session.playback.actor.getSnapshot())).toBe(true);

    session.dispose();
    expect(isPlaying(session.playback.actor.getSnapshot())).toBe(false);
    expect(session.playback.actor.getSnapshot().context.manual).toBe(false);
    expect(session.images.getSnapshot()).toMatchObject({ slice: 1, sliceCount: 0, bmodeLoaded: 0 });
    expect(session.images.images).toBeNull();
    expect(session.playback.canPlay()).toBe(false);
    expect(annotationRequests.map((signal) => signal.aborted)).toEqual([true]);
  });

  it('loads the saved annotations when opened, and opens again after a dispose (strict mode)', async () => {
    const { session, fetchMock } = sessionWith();
    open(session);
    await vi.waitFor(() => expect(session.annotationStore.getSnapshot().version).toBe(2));
    session.dispose();
    expect(session.isOpen).toBe(false);
    open(session);
    expect(session.isOpen).toBe(true);
    expect(fetchMock.mock.calls.filter(([input]) => String(input).endsWith('/annotations'))).toHaveLength(2);
  });

  it('stops following the tab once disposed: showing the tab again does not resume playback', () => {
    const { session } = sessionWith();
    open(session);
    session.playback.actor.send({ type: 'playback.autoResume' });
    expect(isPlaying(session.playback.actor.getSnapshot())).toBe(true);
    session.dispose();
    document.dispatchEvent(new Event('visibilitychange'));
    expect(isPlaying(session.playback.actor.getSnapshot())).toBe(false);
  });

  it('saves with the record status the session holds, not what the tab’s storage says, and then holds saved', async () => {
    const { session, fetchMock } = sessionWith();
    const record = { ...ONE_RECORD_PATIENT.records[0]!, annotations: 'records/R-70/annotations' };
    writePatientContext({ patient: { ...ONE_RECORD_PATIENT.patient, sex: 'M', records: [record] } });
    // The tab's stored copy says 'saved'; the record the session was given has never been saved.
    writeRecordContext({ patientId: 'P-7', record: { ...record, annotation: { status: 'saved', savedBy: 'x', savedAt: SAVED_AT } } });
    open(session);
    session.setRecord({ annotation: null });
    await vi.waitFor(() => expect(session.annotationStore.getSnapshot().status).toBe('ready'));

    expect(session.annotationStatus()).toBe('new');
    await session.save();
    const posted = () => fetchMock.mock.calls.map(([input]) => new URL(String(input), 'http://demo.localhost')).filter((url) => url.pathname === '/api/demo/records');
    expect(posted().map((url) => url.searchParams.get('status'))).toEqual(['new']);

    // An older copy of the record handed over again does not undo the save.
    session.setRecord({ annotation: null });
    expect(session.annotationStatus()).toBe('saved');
    await session.save();
    expect(posted().map((url) => url.searchParams.get('status'))).toEqual(['new', 'saved']);
  });

  it('speeds follow the record’s frame rate through the cursor', () => {
    const { session } = sessionWith();
    open(session);
    session.playback.setSpeed('real-time');
    expect(session.playback.actor.getSnapshot().context.slicesPerTick).toBeCloseTo(0.3);
    session.images.setImages({ ...session.images.images!, frameRateHz: 50 });
    expect(session.playback.actor.getSnapshot().context.slicesPerTick).toBeCloseTo(0.5);
  });
});

describe('each panel’s brightness and contrast (issue 26)', () => {
  it('belong to the open record’s session: the next record opens with every panel at default', () => {
    const first = sessionWith().session;
    first.displays.bmode.set({ brightness: 0.4, contrast: 2 });
    first.displays.lmode.set({ brightness: -0.2, contrast: 1 });
    expect(first.displays.angio.get()).toEqual(DEFAULT_BRIGHTNESS_CONTRAST);
    const next = sessionWith().session;
    expect([next.displays.angio.get(), next.displays.bmode.get(), next.displays.lmode.get()]).toEqual([DEFAULT_BRIGHTNESS_CONTRAST, DEFAULT_BRIGHTNESS_CONTRAST, DEFAULT_BRIGHTNESS_CONTRAST]);
  });
});
