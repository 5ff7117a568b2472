/**
 * What an ultrasound loop's pixels say it is (issue 26): a fan (echo, obstetric), a rectangle
 * (vascular) or an IVUS image (centred circle with a stationary catheter ring-down); and the rule
 * that weighs them with the header, so that nothing is analysed as IVUS that is not.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readDicomFile } from '../../../src/server/dicom/dicom-file.ts';
import { fieldOfView, type GrayFrames } from '../../../src/server/dicom/ultrasound-field-of-view.ts';
import { withPixelEvidence, type UltrasoundClassification } from '../../../src/server/dicom/ultrasound-kind.ts';
import { withUltrasoundPixels } from '../../../src/server/import/ultrasound-pixel-check.ts';
import { smoothPixel } from '../../support/dicom-fixtures.ts';
import { encodeLoop, LOOP_COLUMNS, LOOP_FRAMES, LOOP_ROWS, loopGray, missingDicomTools, type LoopKind } from '../../support/ultrasound-loops.ts';

function drawn(pixel: (frame: number, x: number, y: number) => number, frames = LOOP_FRAMES, rows = LOOP_ROWS, columns = LOOP_COLUMNS): GrayFrames {
  return {
    rows,
    columns,
    frames: Array.from({ length: frames }, (_, f) => {
      const out = new Uint8Array(rows * columns);
      for (let y = 0; y < rows; y++) for (let x = 0; x < columns; x++) out[y * columns + x] = pixel(f, x, y);
      return out;
    }),
  };
}

const loop = (kind: LoopKind, frames = LOOP_FRAMES) => drawn((f, x, y) => loopGray(kind, f, x, y), frames);

describe('the field of view of an ultrasound loop', () => {
  it.each([
    ['echo', 'fan'],
    ['obstetric', 'fan'],
    ['vascular', 'rectangle'],
    ['ivus', 'circle'],
  ] as const)('of a drawn %s loop is a %s', (kind, shape) => {
    expect(fieldOfView(loop(kind))).toEqual({ shape, ringDown: kind === 'ivus' });
  });

  it('sees the ring-down only when it stays put: a bright ring that moves is not a catheter', () => {
    const moving = drawn((f, x, y) => {
      const r = Math.hypot(x - 80 - 3 * f, y - 60);
      return Math.hypot(x - 80, y - 60) > 56 ? 0 : r >= 4 && r <= 7 ? 230 : loopGray('ivus', f, x, y) === 230 ? 20 : loopGray('ivus', f, x, y);
    });
    expect(fieldOfView(moving)).toEqual({ shape: 'circle', ringDown: false });
  });

  it('says nothing of frames it cannot judge: all black, one frame, too small, or fewer bytes than the header says', () => {
    expect(fieldOfView(drawn(() => 0))).toEqual({ shape: 'unclear', ringDown: false });
    expect(fieldOfView(loop('ivus', 1))).toEqual({ shape: 'circle', ringDown: false });
    expect(fieldOfView(drawn((f, x, y) => loopGray('ivus', f, x, y), 3, 8, 8))).toEqual({ shape: 'unclear', ringDown: false });
    expect(fieldOfView({ rows: 65_535, columns: 65_535, frames: [new Uint8Array(16)] })).toEqual({ shape: 'unclear', ringDown: false });
    expect(fieldOfView({ rows: 120, columns: 160, frames: [] })).toEqual({ shape: 'unclear', ringDown: false });
  });

  it("reads the project's own IVUS fixtures (a pattern over the whole frame) as a rectangle", () => {
    expect(fieldOfView(drawn(smoothPixel, 4, 48, 64)).shape).toBe('rectangle');
  });
});

describe('the header and the pixels together', () => {
  const header = (evidence: UltrasoundClassification['evidence']): UltrasoundClassification =>
    evidence === 'none'
      ? { kind: 'other-ultrasound', reason: 'modality US from GE Healthcare Vivid E95', evidence }
      : { kind: 'ivus', reason: evidence === 'ivus-fields' ? 'modality IVUS' : 'described as IVUS LAD', evidence };

  it('never makes IVUS of a header that does not say so, but says when the frames look like IVUS', () => {
    const judged = withPixelEvidence(header('none'), { shape: 'circle', ringDown: true });
    expect(judged.kind).toBe('other-ultrasound');
    expect(judged.reason).toMatch(/frames look like an IVUS pullback .*export it again from the IVUS console/);
  });

  it('takes IVUS away from a fan whatever the header, and from a rectangle when only a name says IVUS', () => {
    expect(withPixelEvidence(header('ivus-fields'), { shape: 'fan', ringDown: false })).toMatchObject({ kind: 'other-ultrasound', reason: expect.stringMatching(/header says IVUS \(modality IVUS\) but its frames show a fan/) });
    expect(withPixelEvidence(header('ivus-name'), { shape: 'rectangle', ringDown: false })).toMatchObject({ kind: 'other-ultrasound', reason: expect.stringMatching(/names IVUS only by described as IVUS LAD/) });
    // IVUS fields with frames in polar form (a rectangle), or frames that say nothing: the header's word stands.
    expect(withPixelEvidence(header('ivus-fields'), { shape: 'rectangle', ringDown: false }).kind).toBe('ivus');
    expect(withPixelEvidence(header('ivus-name'), { shape: 'unclear', ringDown: false }).kind).toBe('ivus');
    expect(withPixelEvidence(header('ivus-name'), { shape: 'circle', ringDown: true }).kind).toBe('ivus');
  });
});

describe.skipIf(missingDicomTools.length > 0)(`loops encoded by GDCM and dcmtk (skipped without ${missingDicomTools.join(', ') || 'them'})`, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fov-'));
  const judged = async (name: string, bytes: Buffer) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return (await withUltrasoundPixels(readDicomFile(file, name))).ultrasound;
  };

  it.each([
    ['echo', 'jpeg-ybr422', /fan-shaped/],
    ['obstetric', 'jpeg-ybr422', /fan-shaped/],
    ['vascular', 'jpeg-ybr422', /rectangular/],
    ['ivus', 'jpeg-ybr422', /look like an IVUS pullback/],
    ['echo', 'jpeg-gray', /fan-shaped/],
    ['ivus', 'jpeg-gray', /look like an IVUS pullback/],
  ] as const)('a %s loop in %s, with a GE header, is other ultrasound and its frames are named', async (kind, encoding, words) => {
    const us = await judged(`${kind}-${encoding}.dcm`, encodeLoop(kind, { patientId: 'FOV-1', manufacturer: 'GE Healthcare', model: 'Vivid E95' }, encoding));
    expect(us).toMatchObject({ kind: 'other-ultrasound', reason: expect.stringMatching(words) });
  });

  it('an IVUS loop with modality IVUS is IVUS; an echo loop with modality IVUS is not', async () => {
    expect((await judged('ivus.dcm', encodeLoop('ivus', { patientId: 'FOV-2', modality: 'IVUS' })))?.kind).toBe('ivus');
    expect(await judged('echo.dcm', encodeLoop('echo', { patientId: 'FOV-3', modality: 'IVUS' }))).toMatchObject({ kind: 'other-ultrasound', reason: expect.stringMatching(/header says IVUS .* fan-shaped/) });
  });
});

describe('a real echocardiography loop found in node_modules (dicomweb-client test data)', () => {
  const sample = path.resolve('node_modules/dicomweb-client/testData/US-PAL-8-10x-echo.dcm');
  // Its sector is mostly dark blood pool under a colour Doppler box, with text and an ECG trace
  // around it: the frames say nothing clear, and nothing in them looks like IVUS.
  it.skipIf(!fs.existsSync(sample))('is other ultrasound, and its frames are not taken for IVUS', async () => {
    const us = (await withUltrasoundPixels(readDicomFile(sample, 'echo.dcm'))).ultrasound;
    expect(us?.kind).toBe('other-ultrasound');
    expect(us?.reason).not.toMatch(/look like an IVUS pullback|rectangular/);
  });
});
