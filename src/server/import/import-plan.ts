/**
 * What an upload becomes (issue 8): which record the files make or join, the import row to
 * register, and the acquisition figures with defaults for what the files do not say. Refuses, with
 * the file named, what cannot be imported: two pullbacks, a study or patient mismatch, a series
 * already imported, an angiography run without its pullback.
 */
import { randomUUID } from 'node:crypto';
import { importErrorMessage } from '../../domain/imports.ts';
import type { Db } from '../db/client.ts';
import { importedSeries, studyRecordForAngio, type ImportRow, type NewImport } from '../db/imports.ts';
import { imagingKey, type ImagingKeyParts } from '../imaging/record-imaging.ts';
import type { DicomFile } from './dicom-file.ts';
import { ImportRejection, rejectFile } from './errors.ts';

/** Defaults for what a file may not say, each reported as a warning on the import. */
export const DEFAULT_FRAME_RATE_HZ = 30;
export const DEFAULT_PULLBACK_MM_PER_S = 0.5;
export const DEFAULT_PIXEL_SPACING_MM = 0.01;
const IMAGING_VERSION = 'v1';

export type ImportActor = { tenantId: string; userId: string; email: string };
export type UploadedFile = { fileName: string; path: string; size: number };

export type Plan = {
  row: ImportRow;
  bmode: DicomFile | null;
  angio: DicomFile | null;
  target: ImagingKeyParts;
  patient: DicomFile['patient'];
  actor: ImportActor;
  frameRateHz: number;
  pixelSpacingMm: number;
  pullbackSpeedMmPerS: number;
};

/** Which record the files make or join, and the row to register; refuses what cannot be imported. */
export async function planImport(db: Db, actor: ImportActor, importId: string, dir: string, files: DicomFile[]): Promise<Omit<Plan, 'row'> & { row: NewImport }> {
  const seen = new Map<string, DicomFile>();
  for (const file of files) {
    const earlier = seen.get(file.seriesInstanceUid);
    if (earlier) throw rejectFile('duplicate_series', file.fileName, `it holds the same series as ${earlier.fileName}.`);
    seen.set(file.seriesInstanceUid, file);
  }
  const bmodes = files.filter((f) => f.kind === 'bmode');
  const angios = files.filter((f) => f.kind === 'angio');
  if (bmodes.length > 1) {
    throw new ImportRejection('conflicting_files', `${bmodes.map((f) => f.fileName).join(' and ')} are two IVUS pullbacks: import them one at a time.`);
  }
  if (angios.length > 1) {
    throw new ImportRejection('conflicting_files', `${angios.map((f) => f.fileName).join(' and ')} are two angiography runs: a record holds one.`);
  }
  const bmode = bmodes[0] ?? null;
  const angio = angios[0] ?? null;
  if (bmode && angio) {
    if (angio.studyInstanceUid !== bmode.studyInstanceUid) {
      throw rejectFile('conflicting_files', angio.fileName, `its study is not the study of the pullback ${bmode.fileName}.`);
    }
    if (angio.patient.id !== bmode.patient.id) {
      throw rejectFile('conflicting_files', angio.fileName, `its patient (${angio.patient.id}) is not the patient of the pullback ${bmode.fileName} (${bmode.patient.id}).`);
    }
  }
  const already = await importedSeries(db, actor.tenantId, files.map((f) => f.seriesInstanceUid));
  const duplicate = files.find((f) => already.includes(f.seriesInstanceUid));
  if (duplicate) throw rejectFile('duplicate_series', duplicate.fileName, `its series (${duplicate.seriesInstanceUid}) has already been imported.`);

  let target: ImagingKeyParts;
  let createsRecord: boolean;
  let storagePrefixes: string[];
  if (bmode) {
    target = { tenantId: actor.tenantId, id: randomUUID(), imagingVersion: IMAGING_VERSION };
    createsRecord = true;
    storagePrefixes = [`${target.tenantId}/${target.id}/`];
  } else {
    const only = angio!;
    const found = await studyRecordForAngio(db, actor.tenantId, only.studyInstanceUid);
    if (!found.record) {
      if (found.studyInProgress) {
        throw rejectFile('angio_without_pullback', only.fileName, 'the pullback of its study is still being imported: send the angiography run when that import is done.');
      }
      if (found.angioBeingAdded) {
        throw rejectFile('conflicting_files', only.fileName, 'another import is adding an angiography run to the record of its study.');
      }
      if (found.studyHasRecords) {
        throw rejectFile('conflicting_files', only.fileName, 'every record of its study already has an angiography run.');
      }
      throw rejectFile('angio_without_pullback', only.fileName, `no IVUS pullback of its study has been imported: ${importErrorMessage('angio_without_pullback')}`);
    }
    if (found.record.patientId !== only.patient.id) {
      throw rejectFile('conflicting_files', only.fileName, `its patient (${only.patient.id}) is not the patient of the record of its study (${found.record.patientId}).`);
    }
    target = { tenantId: actor.tenantId, id: found.record.id, imagingVersion: found.record.imagingVersion };
    createsRecord = false;
    storagePrefixes = [imagingKey(target, 'angio/'), imagingKey(target, 'preview-angio.png')];
  }

  const warnings: string[] = [];
  let frameRateHz = DEFAULT_FRAME_RATE_HZ;
  let pixelSpacingMm = DEFAULT_PIXEL_SPACING_MM;
  let pullbackSpeedMmPerS = DEFAULT_PULLBACK_MM_PER_S;
  if (bmode) {
    if (bmode.frameRateHz) frameRateHz = bmode.frameRateHz;
    else warnings.push(`${bmode.fileName} gives no frame time or cine rate: ${DEFAULT_FRAME_RATE_HZ} frames per second is assumed.`);
    if (bmode.pixelSpacingMm) pixelSpacingMm = bmode.pixelSpacingMm;
    else warnings.push(`${bmode.fileName} gives no pixel spacing: measurements assume ${DEFAULT_PIXEL_SPACING_MM} mm per pixel.`);
    if (bmode.pullbackSpeedMmPerS) pullbackSpeedMmPerS = bmode.pullbackSpeedMmPerS;
    else warnings.push(`${bmode.fileName} gives no pullback rate (0018,3101): ${DEFAULT_PULLBACK_MM_PER_S} mm/s is assumed.`);
  }
  const main = bmode ?? angio!;
  return {
    row: {
      id: importId,
      tenantId: actor.tenantId,
      status: 'processing',
      fileNames: files.map((f) => f.fileName),
      framesDone: 0,
      framesTotal: files.reduce((sum, f) => sum + f.frameCount, 0),
      warnings,
      studyInstanceUid: main.studyInstanceUid,
      targetRecordId: target.id,
      createsRecord,
      angioRecordId: angio ? target.id : null,
      storagePrefixes,
      tempDir: dir,
      createdBy: actor.userId,
      createdByEmail: actor.email,
    },
    bmode,
    angio,
    target,
    patient: main.patient,
    actor,
    frameRateHz,
    pixelSpacingMm,
    pullbackSpeedMmPerS,
  };
}
