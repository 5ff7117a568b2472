/**
 * "Send to PACS" (issue 17): the record's saved measurements and borders as a DICOM SR (TID 1500)
 * and its one-page report as Encapsulated PDF, both made here from what the server holds (the
 * latest saved annotation version and the server's own border detection, never figures sent by a
 * browser) and stored with STOW-RS in the record's study. Issue 28: the stent the server's detection
 * read (when it found one) is a section of the PDF and a group of the SR, its expansion and edge
 * figures from the saved corrected borders; when the clinician sends with gating on, the server
 * gates the record's frames itself and adds the gated figures to both.
 */
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply } from 'fastify';
import { emptyManifest } from '../../domain/annotations/manifest.ts';
import { correctedAnalysis, type CorrectedAnalysis, type PullbackGeometry } from '../../domain/contours/corrected-analysis.ts';
import { lesionResults } from '../../domain/contours/lesion-results.ts';
import type { GatingResult } from '../../domain/gating/end-diastole.ts';
import { gatedAnalysis } from '../../domain/gating/gated-analysis.ts';
import { gatedReportSection } from '../../domain/gating/gated-export.ts';
import { stentReportSection } from '../../domain/stent/stent-report.ts';
import { RecordContoursWithStentSchema } from '../../domain/stent/stored-stent.ts';
import type { PacsSendResult } from '../../domain/pacs.ts';
import type { AcquisitionFact } from '../../domain/records.ts';
import { buildReportPdf } from '../../domain/reports/report-pdf.ts';
import { calciumReportSection, type ReportSection } from '../../domain/calcium/calcium-report.ts';
import type { RecordImaging } from '../imaging/record-imaging.ts';
import type { Principal } from '../auth/authenticate.ts';
import type { RecordContourService } from '../contours/record-contours.ts';
import { findAnnotationVersion } from '../db/annotations.ts';
import { appendAudit } from '../db/audit.ts';
import type { Db } from '../db/client.ts';
import type { PacsConnectionRow } from '../db/pacs-connections.ts';
import { findPatient } from '../db/patients.ts';
import { findRecord } from '../db/records.ts';
import { buildEncapsulatedPdf } from '../dicom/encapsulated-pdf.ts';
import { reportFont } from '../dicom/report-font.ts';
import type { GatedContent } from '../dicom/sr/gated-group.ts';
import { buildMeasurementReport, type ReportSubject } from '../dicom/sr/measurement-report.ts';
import type { PacsClient } from '../pacs/dicomweb.ts';
import { contoursOr422 } from './contours.ts';
import { NotFoundError } from './validation.ts';
import { reportFromStoredFrames } from './report-stored-frames.ts';

const gunzip = promisify(zlib.gunzip);

export type SendDeps = { db: Db; contours: RecordContourService; imaging: Pick<RecordImaging, 'chunk'> };

/** What the clinician asked for beyond the connection: `gating` while the review's gating was on. */
export interface SendOptions {
  readonly gating: boolean;
}

export async function sendRecordToPacs(
  deps: SendDeps,
  principal: Principal,
  recordId: string,
  connection: PacsConnectionRow,
  client: PacsClient,
  reply: FastifyReply,
  options: SendOptions = { gating: false },
): Promise<PacsSendResult | FastifyReply> {
  const { db } = deps;
  const record = await findRecord(db, principal.tenantId, recordId);
  if (!record) throw new NotFoundError(`No record "${recordId}".`);
  if (!record.studyInstanceUid || !record.pullbackInstance) {
    return reply.code(409).send({
      error: 'not_dicom_record',
      message: 'Only records imported from DICOM with their pullback can be sent: this one has no study in a PACS.',
    });
  }
  const state = await contoursOr422(deps.contours, record, reply);
  if (!('ready' in state)) return state;
  if (!state.ready) {
    return reply.code(409).send({
      error: 'contours_not_ready',
      message: `The borders are still being detected (${state.done} of ${state.total} slices): send again in a moment.`,
    });
  }
  const detected = RecordContoursWithStentSchema.parse(JSON.parse((await gunzip(state.gz)).toString('utf8')));
  const saved = await findAnnotationVersion(db, principal.tenantId, recordId);
  const manifest = saved?.manifest ?? emptyManifest();
  // Issue 23: the borders are stored before the stent is read. The report would say "no stent" on a
  // stented vessel: it waits, unless the clinician corrected the stent by hand (then its frames are read here).
  if (detected.stentPending && (manifest.stentBorders ?? []).length === 0) {
    return reply.code(409).send({
      error: 'stent_not_ready',
      message: 'The stent is still being read (a few seconds after the borders): send again in a moment.',
    });
  }
  const figures = { pixelSpacingMm: record.pixelSpacingMm, frameRateHz: record.frameRateHz, pullbackSpeedMmPerS: record.pullbackSpeedMmPerS };
  const analysis = correctedAnalysis(detected, manifest, figures);
  const patient = await findPatient(db, principal.tenantId, record.patientId);
  if (!patient) throw new NotFoundError(`No patient "${record.patientId}".`);

  // Issue 28: the stent measured again on the stent borders the clinician corrected by hand, the
  // gating, and the arcs re-read on corrected lumens (with those set by hand), as the review shows
  // them; with the report's images, from one pass over the stored frames.
  const { stent, gating, calcium, frames, lmode } = await reportFromStoredFrames(deps.imaging, record, { detected, manifest, analysis, geometry: figures, gating: options.gating });
  const madeAt = new Date();
  const subject: ReportSubject = {
    patient: { patientId: patient.patientId, name: patient.name, birthDate: patient.birthDate, sex: patient.sex },
    study: { studyInstanceUid: record.studyInstanceUid },
    pullback: record.pullbackInstance,
    author: { name: principal.name, email: principal.email },
    madeAt,
    recordId,
  };
  const pdf = await buildReportPdf({
    patient: { name: patient.name, patientId: patient.patientId, birthDate: patient.birthDate },
    record: { acquiredAt: record.acquiredAt.toISOString(), modality: record.modality, recordId, assumed: record.assumed as AcquisitionFact[] },
    result: analysis,
    manifest,
    figures,
    madeAt,
    review: saved ? { savedBy: saved.savedBy, savedAt: saved.savedAt.toISOString() } : null,
    frames,
    lmode,
    sections: [
      ...(gating ? [gatedSection(gating, analysis, figures)] : []),
      calciumReportSection(calcium),
      ...(stent ? [stentReportSection(stent.results, stent.figures, stent.manualSlices)] : []),
    ],
  }, await reportFont());
  const gated = gating?.kind === 'gated' ? gatedContent(gating, analysis, figures) : undefined;
  const report = buildMeasurementReport(subject, { manifest, analysis, pixelSpacingMm: record.pixelSpacingMm, calcium, stent: stent ?? undefined, gated });
  const document = buildEncapsulatedPdf(subject, pdf);
  await client.store(record.studyInstanceUid, [report.bytes, document.bytes]);

  const result: PacsSendResult = {
    studyInstanceUid: record.studyInstanceUid,
    stored: [
      { kind: 'sr', sopInstanceUid: report.sopInstanceUid },
      { kind: 'pdf', sopInstanceUid: document.sopInstanceUid },
    ],
    annotationVersion: saved?.version ?? null,
  };
  await appendAudit(db, {
    tenantId: principal.tenantId,
    action: 'record-sent-to-pacs',
    actorId: principal.userId,
    actorEmail: principal.email,
    targetType: 'record',
    targetId: recordId,
    details: { connection: connection.name, connectionId: connection.id, ...result },
  });
  return result;
}

/** The PDF's gated section: the gated figures, or why there are none (the clinician asked for them). */
function gatedSection(gating: GatingResult, analysis: CorrectedAnalysis, geometry: PullbackGeometry): ReportSection {
  if (gating.kind === 'gated') return gatedReportSection(analysis, gating, geometry);
  return { heading: 'Gated analysis', lines: [`Gating was on, but no cardiac cycle was found in the frames (${gating.reason}): every figure uses all frames.`] };
}

function gatedContent(gating: Extract<GatingResult, { kind: 'gated' }>, analysis: CorrectedAnalysis, geometry: PullbackGeometry): GatedContent {
  return { endDiastolicFrames: gating.endDiastolicFrames, heartRateBpm: gating.heartRateBpm, results: lesionResults(gatedAnalysis(analysis, gating.endDiastolicFrames, geometry)) };
}
