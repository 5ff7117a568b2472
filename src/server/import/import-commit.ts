/**
 * The one transaction that ends an import: the patient (if new), the record or the series it adds
 * to one, the audit row, and the import marked 'done'. Anything refused here (a patient created
 * meanwhile under another name, a record filled meanwhile) rolls all of it back.
 */
import { and, eq, sql } from 'drizzle-orm';
import { appendAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import { markImportDone, type ImportRow } from '../db/imports.ts';
import { patientIdentities } from '../db/patients.ts';
import { patients, records, type DicomInstanceRef } from '../db/schema.ts';
import type { DicomFile } from '../dicom/dicom-file.ts';
import { packCodecOf } from '../dicom/page-decodable.ts';
import { ImportRejection } from '../../domain/import-rejection.ts';
import { identitiesDiffer } from './patient-choice.ts';
import type { Plan } from './record-plan.ts';

/** The pullback a record's slices are frames of, for the image references of its reports. */
function instanceRef(file: DicomFile): DicomInstanceRef {
  return { sopClassUid: file.sopClassUid, sopInstanceUid: file.sopInstanceUid, seriesInstanceUid: file.seriesInstanceUid };
}

/** Thrown when the import was rolled back (by another replica's recovery) before it could commit. */
export class ImportAborted extends Error {}

export type RunningPlan = Omit<Plan, 'row'> & { row: ImportRow };

export async function commitImport(db: Db, plan: RunningPlan, framesDone: number): Promise<void> {
  const { target, actor, bmode, angio, patient } = plan;
  await db.transaction(async (tx) => {
    const inserted = await tx
      .insert(patients)
      .values({ tenantId: actor.tenantId, patientId: patient.id, name: patient.name, birthDate: patient.birthDate, sex: patient.sex })
      .onConflictDoNothing()
      .returning({ patientId: patients.patientId });
    const patientCreated = inserted.length > 0;
    if (!patientCreated && !patient.confirmed) {
      // Checked when the upload was planned; a patient created since then is checked again.
      const existing = (await patientIdentities(tx, actor.tenantId, [patient.id])).get(patient.id)!;
      if (identitiesDiffer(patient, existing)) {
        throw new ImportRejection('patient_identity_mismatch', `The patient ${patient.id} was created meanwhile as "${existing.name}": check that it is the same patient and import again.`);
      }
    }
    if (!plan.joins) {
      const main = bmode ?? angio!;
      await tx.insert(records).values({
        id: target.id,
        tenantId: actor.tenantId,
        patientId: patient.id,
        acquiredAt: plan.acquiredAt!,
        modality: main.modality,
        bmodeFrameCount: bmode?.frameCount ?? 0,
        angioFrameCount: angio?.frameCount ?? 0,
        frameWidth: main.format.columns,
        frameHeight: main.format.rows,
        angioWidth: (angio ?? main).format.columns,
        angioHeight: (angio ?? main).format.rows,
        frameRateHz: plan.frameRateHz,
        pullbackSpeedMmPerS: plan.pullbackSpeedMmPerS,
        pixelSpacingMm: plan.pixelSpacingMm,
        imagingSource: 'import',
        demoSeed: null,
        imagingVersion: target.imagingVersion,
        assumed: plan.assumed,
        studyInstanceUid: main.studyInstanceUid,
        pullbackInstance: bmode ? instanceRef(bmode) : null,
        // The pullback names the run; an angiography run imported alone names it until its pullback comes.
        seriesDescription: bmode?.seriesDescription ?? angio?.seriesDescription ?? null,
        imagingKind: bmode?.ultrasound?.kind ?? 'ivus',
        // Every chunk was stored as a frame pack too (a series joining an older record is, but sent as that record's are).
        chunkFormat: 'frame-pack',
        bmodePackCodec: bmode ? packCodecOf(bmode.format) : null,
        angioPackCodec: angio ? packCodecOf(angio.format) : null,
      });
    } else {
      const slot = plan.joins === 'bmode' ? records.bmodeFrameCount : records.angioFrameCount;
      const series =
        plan.joins === 'bmode'
          ? {
              modality: bmode!.modality,
              bmodeFrameCount: bmode!.frameCount,
              frameWidth: bmode!.format.columns,
              frameHeight: bmode!.format.rows,
              frameRateHz: plan.frameRateHz,
              pullbackSpeedMmPerS: plan.pullbackSpeedMmPerS,
              pixelSpacingMm: plan.pixelSpacingMm,
              pullbackInstance: instanceRef(bmode!),
              seriesDescription: sql`coalesce(${bmode!.seriesDescription}::text, ${records.seriesDescription})`,
              imagingKind: bmode!.ultrasound?.kind ?? 'ivus',
              bmodePackCodec: packCodecOf(bmode!.format),
            }
          : {
              angioFrameCount: angio!.frameCount,
              angioWidth: angio!.format.columns,
              angioHeight: angio!.format.rows,
              angioPackCodec: packCodecOf(angio!.format),
              seriesDescription: sql`coalesce(${records.seriesDescription}, ${angio!.seriesDescription}::text)`,
            };
      const joined = await tx
        .update(records)
        .set({ ...series, assumed: plan.assumed, ...(plan.acquiredAt ? { acquiredAt: plan.acquiredAt } : {}) })
        .where(and(eq(records.tenantId, actor.tenantId), eq(records.id, target.id), eq(records.patientId, patient.id), eq(slot, 0)))
        .returning({ id: records.id });
      if (joined.length === 0) throw new ImportRejection('conflicting_files', `The record of this study got its ${plan.joins === 'bmode' ? 'pullback' : 'angiography run'} meanwhile.`);
    }
    await appendAudit(tx, {
      tenantId: actor.tenantId,
      action: 'record-imported',
      actorId: actor.userId,
      actorEmail: actor.email,
      targetType: 'record',
      targetId: target.id,
      details: {
        importId: plan.row.id,
        source: plan.row.source,
        sourceName: plan.row.sourceName,
        patientId: patient.id,
        patientCreated,
        // Who named the patient: the files' Patient ID, or the uploader (files without one, or confirmed against them).
        patientChosenBy: patient.chosenByUploader ? 'uploader' : 'file',
        patientIdentityConfirmed: patient.identityConfirmed,
        recordCreated: !plan.joins,
        joined: plan.joins,
        files: plan.row.fileNames,
        bmodeFrames: bmode?.frameCount ?? 0,
        angioFrames: angio?.frameCount ?? 0,
        studyInstanceUid: plan.row.studyInstanceUid,
        assumed: plan.assumed,
      },
    });
    if (!(await markImportDone(tx, plan.row.id, { patientId: patient.id, recordId: target.id, framesDone }))) throw new ImportAborted();
  });
}
