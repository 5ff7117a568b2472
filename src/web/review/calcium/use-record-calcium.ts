import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { calciumCsv } from '../../../domain/calcium/calcium-csv.ts';
import { createCalciumArcDetector, type CalciumArcDetector } from '../../../domain/calcium/calcium-arc.ts';
import { borderKey, correctedLumens, isCorrectedBorder, remeasureCalcium, type CorrectedLumen } from '../../../domain/calcium/corrected-calcium.ts';
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

/** Frames re-read per task: about 8 ms each, so the page stays responsive while a key frame's reach (up to 240 frames) is read. */
const FRAMES_PER_TASK = 8;

/**
 * The record's calcium (issue 28), once its contours are ready: the score on the analysis's own mm
 * positions; on every slice whose lumen border the clinician corrected (manual or propagated) and
 * whose frame is loaded, the arc read again on the corrected border; the clinician's own arcs over
 * all; the vessel diameter from the corrected vessel border. The re-reads run in small tasks after a
 * correction (never in the render); until they are done those slices count their detected arc and
 * are named as such.
 */
export function useRecordCalcium(
  contours: RecordContours | null,
  result: CorrectedAnalysis | null,
  frameAt?: (slice: number) => ReportFrame | null,
  byHand: readonly CalciumArcCorrection[] = NO_ARCS,
): RecordCalcium | null {
  const [cache] = useState<RemeasureState>(() => ({ contours: null, arcs: new Map(), detector: null }));
  // Bumped when a run of re-reads ends: the figures are made again from the cache.
  const [reads, setReads] = useState(0);
  // The page makes frameAt anew on each render: the re-reads take the latest, without starting again.
  const frameAtRef = useRef(frameAt);
  useEffect(() => {
    frameAtRef.current = frameAt;
  });
  useEffect(() => {
    if (contours === null || result === null || !hasCalcium(contours)) return;
    const pending = unread(cache, contours, result);
    if (pending.length === 0) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const step = () => {
      const frameAt = frameAtRef.current;
      if (frameAt) readInto(cache, contours, pending.splice(0, FRAMES_PER_TASK), frameAt);
      if (pending.length > 0 && frameAt) timer = setTimeout(step, 0);
      else setReads((n) => n + 1);
    };
    timer = setTimeout(step, 0);
    return () => clearTimeout(timer);
  }, [contours, result, cache]);
  return useMemo(() => {
    if (contours === null || result === null) return null;
    const slices = result.slices;
    const mmPerSlice = slices.length > 1 ? slices[1]!.positionMm - slices[0]!.positionMm : 0;
    return recordCalcium(contours, mmPerSlice, (slice) => isCorrectedBorder(slices[slice - 1]?.source), {
      remeasured: hasCalcium(contours) ? readArcs(cache, contours, result) : new Map(),
      byHand,
      vesselAreaMm2: (slice) => slices[slice - 1]?.vessel?.areaMm2 ?? null,
    });
  }, [contours, result, byHand, cache, reads]); // eslint-disable-line react-hooks/exhaustive-deps -- reads says the cache grew
}

interface RemeasureState {
  contours: RecordContours | null;
  arcs: RemeasureCache;
  detector: { key: string; detector: CalciumArcDetector } | null;
}

/** Contours detected before calcium have none to re-read. */
const hasCalcium = (contours: RecordContours) => contours.contours.some((contour) => 'calcium' in contour && contour.calcium !== undefined);

/** The cache, emptied for other contours. */
function cacheFor(cache: RemeasureState, contours: RecordContours): RemeasureCache {
  if (cache.contours !== contours) {
    cache.contours = contours;
    cache.arcs = new Map();
  }
  return cache.arcs;
}

/** The corrected slices' arcs already re-read on their present border. */
function readArcs(cache: RemeasureState, contours: RecordContours, result: CorrectedAnalysis): Map<number, SliceCalcium | null> {
  const arcs = cacheFor(cache, contours);
  const read = new Map<number, SliceCalcium | null>();
  for (const lumen of correctedLumens(result.slices)) {
    const hit = arcs.get(lumen.slice);
    if (hit && hit.key === borderKey(lumen.controlPoints)) read.set(lumen.slice, hit.calcium);
  }
  return read;
}

/** The corrected slices not yet read on their present border. */
function unread(cache: RemeasureState, contours: RecordContours, result: CorrectedAnalysis): CorrectedLumen[] {
  const arcs = cacheFor(cache, contours);
  return correctedLumens(result.slices).filter((lumen) => arcs.get(lumen.slice)?.key !== borderKey(lumen.controlPoints));
}

/** Reads `lumens`' arcs from their loaded frames into the cache (a frame not loaded is left for a later correction). */
function readInto(cache: RemeasureState, contours: RecordContours, lumens: readonly CorrectedLumen[], frameAt: (slice: number) => ReportFrame | null): void {
  const arcs = cacheFor(cache, contours);
  for (const lumen of lumens) {
    const frame = frameAt(lumen.slice);
    if (frame === null) continue;
    const { width, height } = frame;
    const key = `${width}x${height}/${contours.pixelSpacingMm}`;
    if (cache.detector?.key !== key) cache.detector = { key, detector: createCalciumArcDetector({ frameWidth: width, frameHeight: height, pixelSpacingMm: contours.pixelSpacingMm }) };
    const arc = remeasureCalcium(cache.detector.detector, [lumen], () => frame.pixels, { x: width / 2, y: height / 2 }).get(lumen.slice) ?? null;
    arcs.set(lumen.slice, { key: borderKey(lumen.controlPoints), calcium: arc });
  }
}

/** The calcium tables appended to the pullback CSV (after an empty line), or nothing before the contours are ready. */
export function calciumExportCsv(calcium: RecordCalcium | null, result: CorrectedAnalysis): string {
  if (calcium === null) return '';
  const slices = result.slices;
  const mmPerSlice = slices.length > 1 ? slices[1]!.positionMm - slices[0]!.positionMm : 0;
  return `\r\n${calciumCsv(calcium, mmPerSlice)}`;
}
