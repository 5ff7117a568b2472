import { useMemo, useState, useSyncExternalStore } from 'react';
import { calciumCsv } from '../../../domain/calcium/calcium-csv.ts';
import { createCalciumArcDetector, type CalciumArcDetector } from '../../../domain/calcium/calcium-arc.ts';
import { borderKey, correctedLumens, isCorrectedBorder, remeasureCalcium } from '../../../domain/calcium/corrected-calcium.ts';
import { recordCalcium, type RecordCalcium } from '../../../domain/calcium/record-calcium.ts';
import type { CalciumArcCorrection } from '../../../domain/annotations/calcium-arcs.ts';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import type { RecordContours, SliceCalcium } from '../../../domain/contours/api.ts';
import type { ReportFrame } from '../../../domain/reports/report-frames.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';

/** One re-measure per slice and border: moving a ruler or another slice's border does not read this frame again. */
type RemeasureCache = Map<number, { readonly key: string; readonly calcium: SliceCalcium | null }>;

const NO_ARCS: readonly CalciumArcCorrection[] = [];
const NO_SUBSCRIBE = () => () => {};

/** The manifest's hand-set calcium arcs, with one identity while they do not change. */
export function useHandCalciumArcs(annotations: AnnotationStore | null): readonly CalciumArcCorrection[] {
  return useSyncExternalStore(annotations?.subscribe ?? NO_SUBSCRIBE, () => annotations?.getSnapshot().manifest.calcium ?? NO_ARCS);
}

/**
 * The record's calcium (issue 28), once its contours are ready: the score on the analysis's own mm
 * positions; on every slice whose lumen border the clinician corrected (manual or propagated) and
 * whose frame is loaded, the arc read again on the corrected border; the clinician's own arcs over
 * all; the vessel diameter from the corrected vessel border.
 */
export function useRecordCalcium(
  contours: RecordContours | null,
  result: CorrectedAnalysis | null,
  frameAt?: (slice: number) => ReportFrame | null,
  byHand: readonly CalciumArcCorrection[] = NO_ARCS,
): RecordCalcium | null {
  const [cache] = useState<RemeasureState>(() => ({ contours: null, arcs: new Map(), detector: null }));
  return useMemo(
    () => {
      if (contours === null || result === null) return null;
      const slices = result.slices;
      const mmPerSlice = slices.length > 1 ? slices[1]!.positionMm - slices[0]!.positionMm : 0;
      const remeasured = remeasureLoaded(cache, contours, result, frameAt);
      return recordCalcium(contours, mmPerSlice, (slice) => isCorrectedBorder(slices[slice - 1]?.source), {
        remeasured,
        byHand,
        vesselAreaMm2: (slice) => slices[slice - 1]?.vessel?.areaMm2 ?? null,
      });
    },
    // Not on frameAt: the page makes it anew on each render; a correction (a new analysis) is what asks for a re-read, and its frame is the one on screen.
    [contours, result, byHand, cache], // eslint-disable-line react-hooks/exhaustive-deps
  );
}

interface RemeasureState {
  contours: RecordContours | null;
  arcs: RemeasureCache;
  detector: { key: string; detector: CalciumArcDetector } | null;
}

/** The corrected slices' arcs re-read from their loaded frames (none on contours detected before calcium). */
function remeasureLoaded(
  cache: RemeasureState,
  contours: RecordContours,
  result: CorrectedAnalysis,
  frameAt: ((slice: number) => ReportFrame | null) | undefined,
): Map<number, SliceCalcium | null> {
  if (cache.contours !== contours) {
    cache.contours = contours;
    cache.arcs = new Map();
  }
  const remeasured = new Map<number, SliceCalcium | null>();
  if (!frameAt || !contours.contours.some((contour) => 'calcium' in contour && contour.calcium !== undefined)) return remeasured;
  const toRead = correctedLumens(result.slices).filter((lumen) => {
    const hit = cache.arcs.get(lumen.slice);
    if (hit && hit.key === borderKey(lumen.controlPoints)) {
      remeasured.set(lumen.slice, hit.calcium);
      return false;
    }
    return true;
  });
  if (toRead.length === 0) return remeasured;
  let size: { width: number; height: number } | null = null;
  const pixelsAt = (slice: number) => {
    const frame = frameAt(slice);
    if (frame === null || (size !== null && (frame.width !== size.width || frame.height !== size.height))) return null;
    size ??= { width: frame.width, height: frame.height };
    return frame.pixels;
  };
  for (const lumen of toRead) {
    const pixels = pixelsAt(lumen.slice);
    if (pixels === null || size === null) continue;
    const { width, height } = size;
    const key = `${width}x${height}/${contours.pixelSpacingMm}`;
    if (cache.detector?.key !== key) cache.detector = { key, detector: createCalciumArcDetector({ frameWidth: width, frameHeight: height, pixelSpacingMm: contours.pixelSpacingMm }) };
    const arc = remeasureCalcium(cache.detector.detector, [lumen], () => pixels, { x: width / 2, y: height / 2 }).get(lumen.slice) ?? null;
    cache.arcs.set(lumen.slice, { key: borderKey(lumen.controlPoints), calcium: arc });
    remeasured.set(lumen.slice, arc);
  }
  return remeasured;
}

/** The calcium tables appended to the pullback CSV (after an empty line), or nothing before the contours are ready. */
export function calciumExportCsv(calcium: RecordCalcium | null, result: CorrectedAnalysis): string {
  if (calcium === null) return '';
  const slices = result.slices;
  const mmPerSlice = slices.length > 1 ? slices[1]!.positionMm - slices[0]!.positionMm : 0;
  return `\r\n${calciumCsv(calcium, mmPerSlice)}`;
}
