/**
 * One import of an upload: the record it makes (from a pullback, a pullback and its angiography
 * run, or a run alone) or fills (a pullback joining its run's record, or a run joining its
 * pullback's), with the acquisition figures, defaults for what the files do not say (each a warning
 * and an `assumed` fact of the record), and the import row to register.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { AcquisitionFact } from '../../domain/records.ts';
import type { NewImport, StudyRecord } from '../db/imports.ts';
import { imagingKey, type ImagingKeyParts } from '../imaging/record-imaging.ts';
import type { DicomFile } from '../dicom/dicom-file.ts';
import type { PatientChoice } from './patient-choice.ts';

/** Defaults for what a file may not say, each reported as a warning on the import. */
export const DEFAULT_FRAME_RATE_HZ = 30;
export const DEFAULT_PULLBACK_MM_PER_S = 0.5;
export const DEFAULT_PIXEL_SPACING_MM = 0.01;
const IMAGING_VERSION = 'v1';

/**
 * Who imports: a signed-in user (an upload or a pull from a PACS), or a DICOM push (C-STORE) with no
 * user, named by the AE title that sent it. `source` and `sourceName` are shown in the recent imports.
 */
export type ImportActor = {
  tenantId: string;
  userId: string | null;
  email: string | null;
  source?: 'upload' | 'pacs' | 'dimse';
  /** The PACS connection's name, or the calling AE title of a push. */
  sourceName?: string | null;
};

/** What one import makes: both series of a new record, or the series it adds to `joins`. */
export type ImportUnit = { bmode: DicomFile | null; angio: DicomFile | null; joins: StudyRecord | null; patient: PatientChoice };

export type Plan = {
  row: NewImport;
  seriesUids: string[];
  /** Uploaded files to move into the import's own directory (row.tempDir). */
  moves: { from: string; to: string }[];
  bmode: DicomFile | null;
  angio: DicomFile | null;
  target: ImagingKeyParts;
  /** The series an import adds to an existing record; null when it makes the record. */
  joins: 'bmode' | 'angio' | null;
  patient: PatientChoice;
  actor: ImportActor;
  frameRateHz: number;
  pixelSpacingMm: number;
  pullbackSpeedMmPerS: number;
  /** The record's acquisition time: a new record's (the import's time when no file gives one), or, for a join, the time that replaces an assumed one (else null). */
  acquiredAt: Date | null;
  assumed: AcquisitionFact[];
};

/**
 * The record's acquisition figures. They are the pullback's; a record of an angiography run alone
 * plays that run, so its frame rate is the run's own (Frame Time, Frame Time Vector or Cine Rate)
 * until a pullback joins and brings its own.
 */
function pullbackFigures(bmode: DicomFile | null, angio: DicomFile | null) {
  const warnings: string[] = [];
  const assumed: AcquisitionFact[] = [];
  const name = bmode?.fileName;
  const rateFile = bmode ?? angio;
  const frameRateHz = rateFile?.frameRateHz ?? DEFAULT_FRAME_RATE_HZ;
  const pixelSpacingMm = bmode?.pixelSpacingMm ?? DEFAULT_PIXEL_SPACING_MM;
  const pullbackSpeedMmPerS = bmode?.pullbackSpeedMmPerS ?? DEFAULT_PULLBACK_MM_PER_S;
  if (!rateFile?.frameRateHz) {
    assumed.push('frameRate');
    if (rateFile) warnings.push(`${rateFile.fileName} gives no frame time or cine rate: ${DEFAULT_FRAME_RATE_HZ} frames per second is assumed.`);
  }
  if (!bmode?.pixelSpacingMm) {
    assumed.push('pixelSpacing');
    if (name) warnings.push(`${name} gives no pixel spacing: measurements assume ${DEFAULT_PIXEL_SPACING_MM} mm per pixel.`);
  }
  if (!bmode?.pullbackSpeedMmPerS) {
    assumed.push('pullbackSpeed');
    if (name) warnings.push(`${name} gives no pullback rate (0018,3101): ${DEFAULT_PULLBACK_MM_PER_S} mm/s is assumed.`);
  }
  return { frameRateHz, pixelSpacingMm, pullbackSpeedMmPerS, warnings, assumed };
}

/** Where an import's uploaded files wait in the bucket (import-job.ts): under a prefix its roll-back removes. */
export function stagingPrefix(tenantId: string, importId: string): string {
  return `${tenantId}/import-staging/${importId}/`;
}

export function planUnit(unit: ImportUnit, actor: ImportActor, importId: string, tempRoot: string, uploadDir: string): Plan {
  const { bmode, angio, joins, patient } = unit;
  const files = [bmode, angio].filter((f): f is DicomFile => f !== null).sort((a, b) => a.filePath.localeCompare(b.filePath));
  const tempDir = path.join(tempRoot, importId);
  // The first import keeps the upload's directory; the others get one each, so each removes only its own files.
  const moves = tempDir === uploadDir ? [] : files.map((f) => ({ from: f.filePath, to: path.join(tempDir, path.basename(f.filePath)) }));
  const moved = (file: DicomFile | null) => file && { ...file, filePath: moves.find((m) => m.from === file.filePath)?.to ?? file.filePath };
  const target: ImagingKeyParts = joins
    ? { tenantId: actor.tenantId, id: joins.id, imagingVersion: joins.imagingVersion }
    : { tenantId: actor.tenantId, id: randomUUID(), imagingVersion: IMAGING_VERSION };
  const joined = joins ? (bmode ? 'bmode' : 'angio') : null;
  const imaging =
    joined === 'bmode'
      ? [imagingKey(target, 'bmode/'), imagingKey(target, 'preview-bmode.png')]
      : joined === 'angio'
        ? [imagingKey(target, 'angio/'), imagingKey(target, 'preview-angio.png')]
        : [`${target.tenantId}/${target.id}/`];
  // The uploaded files' copies in the bucket (import-job.ts) go with a roll-back too.
  const storagePrefixes = [...imaging, stagingPrefix(target.tenantId, importId)];

  const figures = pullbackFigures(bmode, joins ? null : angio);
  const warnings = [...figures.warnings];
  // Said where it happens: the review shows grey levels, so colour (Doppler, tissue tints) is dropped.
  for (const file of files) {
    if (file.format.samplesPerPixel === 3) warnings.push(`${file.fileName} is in colour: its frames are kept and shown in grey (their luminance).`);
  }
  if (bmode?.ultrasound?.kind === 'other-ultrasound') {
    warnings.push(`${bmode.fileName} is not an IVUS pullback (${bmode.ultrasound.reason}): imported as other ultrasound, for viewing only, with no borders, measurements or report.`);
  }
  let assumed: AcquisitionFact[];
  let acquiredAt: Date | null;
  const fileTime = bmode?.acquiredAt ?? angio?.acquiredAt ?? null;
  if (joins) {
    const timeWasAssumed = joins.assumed.includes('acquiredAt');
    acquiredAt = timeWasAssumed ? fileTime : null;
    // A pullback brings the record's figures; a run leaves them as they are.
    const figuresAssumed = joined === 'bmode' ? figures.assumed : joins.assumed.filter((f): f is AcquisitionFact => f !== 'acquiredAt');
    assumed = [...(timeWasAssumed && !fileTime ? (['acquiredAt'] as const) : []), ...figuresAssumed];
  } else {
    acquiredAt = fileTime ?? new Date();
    assumed = [...(fileTime ? [] : (['acquiredAt'] as const)), ...figures.assumed];
    if (!fileTime) warnings.push(`${files.map((f) => f.fileName).join(' and ')} give${files.length === 1 ? 's' : ''} no acquisition date or time: the record is dated at the import.`);
    if (!bmode) {
      warnings.push(`${angio!.fileName} is an angiography run without its pullback: it makes a record of its own, which the pullback of its study joins when it is imported.`);
    }
  }

  return {
    row: {
      id: importId,
      tenantId: actor.tenantId,
      status: 'processing',
      fileNames: files.map((f) => f.fileName),
      framesDone: 0,
      framesTotal: files.reduce((sum, f) => sum + f.frameCount, 0),
      warnings,
      studyInstanceUid: (bmode ?? angio)!.studyInstanceUid,
      targetRecordId: target.id,
      createsRecord: !joins,
      angioRecordId: angio ? target.id : null,
      bmodeRecordId: bmode ? target.id : null,
      storagePrefixes,
      tempDir,
      createdBy: actor.userId,
      createdByEmail: actor.email,
      source: actor.source ?? 'upload',
      sourceName: actor.sourceName ?? null,
    },
    seriesUids: files.map((f) => f.seriesInstanceUid),
    moves,
    bmode: moved(bmode),
    angio: moved(angio),
    target,
    joins: joined,
    patient,
    actor,
    frameRateHz: figures.frameRateHz,
    pixelSpacingMm: figures.pixelSpacingMm,
    pullbackSpeedMmPerS: figures.pullbackSpeedMmPerS,
    acquiredAt,
    assumed,
  };
}
