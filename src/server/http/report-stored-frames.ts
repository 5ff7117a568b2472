/**
 * All that a report sent to PACS reads from the record's stored B-mode frames, in one pass over the
 * chunks (contours/stored-chunk-pass.ts): the stent measured on borders corrected by hand, the
 * gating when the clinician sent with gating on, the calcium re-read on corrected lumens, the
 * report's frames and its L-mode. Each chunk is fetched and decompressed once however many of them
 * need it (a send with gating on and a corrected stent read every chunk three times before).
 */
import type { AnnotationManifest } from '../../domain/annotations/manifest.ts';
import type { RecordCalcium } from '../../domain/calcium/record-calcium.ts';
import type { CorrectedAnalysis, PullbackGeometry } from '../../domain/contours/corrected-analysis.ts';
import type { GatingResult } from '../../domain/gating/end-diastole.ts';
import type { ReportLMode } from '../../domain/reports/report-lmode.ts';
import type { ReportInput } from '../../domain/reports/report-pdf.ts';
import type { RecordContoursWithStent } from '../../domain/stent/stored-stent.ts';
import { recordGatingReader } from '../contours/record-gating.ts';
import { readStoredChunks, type ChunkImaging } from '../contours/stored-chunk-pass.ts';
import type { RecordRow } from '../db/records.ts';
import type { StentContent } from '../dicom/sr/stent-group.ts';
import { reportCalciumReader } from './report-calcium.ts';
import { reportFramesReader, reportLModeReader } from './report-images.ts';
import { reportStentReader } from './report-stent.ts';

export interface ReportFrameInputs {
  readonly detected: RecordContoursWithStent;
  readonly manifest: AnnotationManifest;
  readonly analysis: CorrectedAnalysis;
  readonly geometry: PullbackGeometry & { readonly pixelSpacingMm: number };
  /** The clinician sent with gating on: the server gates the frames itself. */
  readonly gating: boolean;
}

export interface ReportFromFrames {
  readonly stent: StentContent | null;
  readonly gating: GatingResult | null;
  readonly calcium: RecordCalcium;
  readonly frames: NonNullable<ReportInput['frames']>;
  readonly lmode: ReportLMode | undefined;
}

export async function reportFromStoredFrames(imaging: ChunkImaging, record: RecordRow, inputs: ReportFrameInputs): Promise<ReportFromFrames> {
  const { detected, manifest, analysis, geometry } = inputs;
  const stent = reportStentReader(record, detected.stent, manifest, analysis, geometry);
  const gating = inputs.gating ? recordGatingReader(record) : null;
  const calcium = reportCalciumReader(record, detected, manifest, analysis);
  const frames = reportFramesReader(record, analysis);
  const lmode = reportLModeReader(record);
  await readStoredChunks(imaging, record, [stent, ...(gating ? [gating] : []), calcium, frames, lmode]);
  return { stent: stent.result(), gating: gating?.result() ?? null, calcium: calcium.result(), frames: frames.result(), lmode: lmode.result() };
}
