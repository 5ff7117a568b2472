/**
 * What an import reads from real headers beyond the pixels: old dotted dates, negative ultrasound
 * region deltas, the frame-rate fallbacks, and the budgets that refuse a hostile header at once,
 * on the calling thread and in the header worker.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { budgetsWithMemory, DEFAULT_IMPORT_BUDGETS } from '../../../src/server/dicom/budgets.ts';
import { isoDate } from '../../../src/server/dicom/attributes.ts';
import { readDicomFile } from '../../../src/server/dicom/dicom-file.ts';
import { ImportRejection } from '../../../src/domain/import-rejection.ts';
import { createHeaderReader } from '../../../src/server/import/header-reader.ts';
import { makeDicom, type FixtureOptions } from '../../support/dicom-fixtures.ts';

const hasDcmodify = spawnSync('dcmodify', ['--version']).status === 0;
const hasDcmmkdir = spawnSync('dcmmkdir', ['--version']).status === 0;
if (!hasDcmodify || !hasDcmmkdir) console.warn('dcmtk is not installed: the old-style date and DICOMDIR cases are skipped (apt-get install dcmtk).');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ivus-header-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let counter = 0;
function write(options: FixtureOptions): string {
  const file = path.join(dir, `f${counter++}.dcm`);
  fs.writeFileSync(file, makeDicom({ frames: 2, ...options }).bytes);
  return file;
}

function rejection(action: () => unknown): ImportRejection {
  try {
    action();
  } catch (error) {
    if (error instanceof ImportRejection) return error;
    throw error;
  }
  throw new Error('expected a rejection');
}

describe('dates', () => {
  it.each([
    ['19941105', '1994-11-05'],
    ['1994.11.05', '1994-11-05'],
    [' 19941105 ', '1994-11-05'],
    ['19941105\\19941106', '1994-11-05'],
    ['1994.1105', null],
    ['19940231', null],
    ['', null],
    ['yesterday', null],
  ])('reads %j as %j', (value, expected) => {
    expect(isoDate(value)).toBe(expected);
  });

  // dcmjs refuses to write the old form; dcmtk's dcmodify writes it as old consoles did.
  it.skipIf(!hasDcmodify)('reads an old-style study date and time as the acquisition instant, and an old-style birth date', () => {
    const path = write({});
    execFileSync('dcmodify', ['-nb', '-m', '(0008,0020)=1994.11.05', '-m', '(0008,0030)=10:20:30', '-m', '(0010,0030)=1950.01.31', path]);
    const file = readDicomFile(path, 'old.dcm');
    expect(file.acquiredAt?.toISOString()).toBe('1994-11-05T10:20:30.000Z');
    expect(file.patient.birthDate).toBe('1950-01-31');
  });

  it('gives no acquisition instant when the file has no usable date, rather than inventing one', () => {
    expect(readDicomFile(write({ studyDate: '', studyTime: '' }), 'nodate.dcm').acquiredAt).toBeNull();
  });
});

describe('geometry and time', () => {
  it('takes the size of a negative ultrasound region delta (cm) as the pixel spacing in mm', () => {
    const file = readDicomFile(write({ regionDeltaXcm: -0.0025 }), 'neg.dcm');
    expect(file.pixelSpacingMm).toBeCloseTo(0.025, 9);
    expect(file.pixelSpacingSource).toBe('ultrasound-regions');
  });

  it('falls back from the regions to Pixel Spacing, and says when neither is given', () => {
    expect(readDicomFile(write({ regionDeltaXcm: null, pixelSpacing: [0.03, 0.03] }), 'ps.dcm')).toMatchObject({
      pixelSpacingMm: 0.03,
      pixelSpacingSource: 'pixel-spacing',
    });
    expect(readDicomFile(write({ regionDeltaXcm: null }), 'none.dcm').pixelSpacingMm).toBeNull();
  });

  it('takes the frame rate from Frame Time, else Cine Rate, else says it is not given', () => {
    expect(readDicomFile(write({ frameTimeMs: 40 }), 'ft.dcm').frameRateHz).toBeCloseTo(25, 9);
    expect(readDicomFile(write({ frameTimeMs: null, cineRate: 60 }), 'cine.dcm').frameRateHz).toBe(60);
    expect(readDicomFile(write({ frameTimeMs: null }), 'none.dcm').frameRateHz).toBeNull();
  });

  it('reads a file without a usable Patient ID instead of refusing it, keeping the text as written', () => {
    const absent = readDicomFile(write({ patientId: '' }), 'anon.dcm');
    expect(absent.patient.id).toBeNull();
    const unusable = readDicomFile(write({ patientId: 'ID with spaces' }), 'spaces.dcm');
    expect(unusable.patient).toMatchObject({ id: null, rawId: 'ID with spaces' });
  });
});

describe('objects a study folder holds besides pullbacks and runs', () => {
  // dcmtk's dcmmkdir writes the DICOMDIR a console or a PACS puts beside the images of a study.
  it.skipIf(!hasDcmmkdir)('names a real DICOMDIR as such when refusing it', () => {
    const study = fs.mkdtempSync(path.join(dir, 'study-'));
    fs.mkdirSync(path.join(study, 'IMAGES'));
    fs.writeFileSync(path.join(study, 'IMAGES', 'IMG00001'), makeDicom({ frames: 2 }).bytes);
    execFileSync('dcmmkdir', ['+r', '+I', '--output-file', 'DICOMDIR', 'IMAGES'], { cwd: study, stdio: 'ignore' });
    const error = rejection(() => readDicomFile(path.join(study, 'DICOMDIR'), 'DICOMDIR'));
    expect(error.code).toBe('unsupported_object');
    expect(error.message).toMatch(/^DICOMDIR: it is a DICOMDIR \(the index of a study folder\) \(1\.2\.840\.10008\.1\.3\.10\), not an IVUS/);
  });

  it.each([
    ['1.2.840.10008.5.1.4.1.1.88.33', 'a structured report'],
    ['1.2.840.10008.5.1.4.1.1.7', 'a secondary capture'],
    ['1.2.840.10008.5.1.4.1.1.104.1', 'an encapsulated document'],
    ['1.2.3.4', 'a DICOM object of class 1.2.3.4'],
  ])('names class %s as %s', (sopClassUid, name) => {
    const error = rejection(() => readDicomFile(write({ sopClassUid, modality: 'OT' }), 'other.dcm'));
    expect(error.code).toBe('unsupported_object');
    expect(error.message.startsWith(`other.dcm: it is ${name}`)).toBe(true);
  });
});

describe('budgets', () => {
  it('refuses encapsulated pixel data of more fragments than the budget, before walking the rest', () => {
    const file = write({ syntax: 'rle', frames: 5 });
    expect(readDicomFile(file, 'ok.dcm', { ...DEFAULT_IMPORT_BUDGETS, maxFragments: 5 }).frames).toHaveLength(5);
    const error = rejection(() => readDicomFile(file, 'rle.dcm', { ...DEFAULT_IMPORT_BUDGETS, maxFragments: 3 }));
    expect(error.code).toBe('over_budget');
    expect(error.message).toBe('rle.dcm: its pixel data holds more than 3 fragments.');
  });

  it('refuses frames that need more memory than the budget, naming the figures, before reading any pixel data', () => {
    // 8 frames of 512 x 512 (2 MiB) announced, 1 MiB allowed; the pixel data is absent, so only the budget can speak first.
    const file = write({ rows: 512, columns: 512, frames: 1, numberOfFrames: '8', noPixelData: true });
    const error = rejection(() => readDicomFile(file, 'big.dcm', budgetsWithMemory(1024 * 1024)));
    expect(error.code).toBe('over_budget');
    expect(error.statusCode).toBe(413);
    expect(error.message).toMatch(/big\.dcm: its 8 frames of 512x512 need 2 MiB where this server allows 1 MiB/);
  });

  it('refuses a header with more elements than the budget', () => {
    const error = rejection(() => readDicomFile(write({}), 'many.dcm', { ...DEFAULT_IMPORT_BUDGETS, maxElements: 10 }));
    expect(error.code).toBe('over_budget');
    expect(error.message).toMatch(/more than 10 data elements/);
  });

  it('reads headers in a worker thread with the same results and the same refusals', async () => {
    const reader = createHeaderReader(1, budgetsWithMemory(1024 * 1024));
    try {
      const good = write({ regionDeltaXcm: -0.002 });
      const inWorker = await reader.read(good, 'good.dcm');
      expect(inWorker).toEqual(readDicomFile(good, 'good.dcm'));
      const big = write({ rows: 512, columns: 512, frames: 1, numberOfFrames: '8', noPixelData: true });
      const error = await reader.read(big, 'big.dcm').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ImportRejection);
      expect(error).toMatchObject({ code: 'over_budget', fileName: 'big.dcm' });
      const notDicom = path.join(dir, 'text.txt');
      fs.writeFileSync(notDicom, 'hello');
      await expect(reader.read(notDicom, 'text.txt')).rejects.toMatchObject({ code: 'not_dicom' });
    } finally {
      await reader.close();
    }
  });
});
