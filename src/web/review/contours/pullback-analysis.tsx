import { Box, Button, HStack, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { correctedAnalysis, framesPerMm, measurementsCsv, type CorrectedAnalysis, type PullbackGeometry } from '../../../domain/contours/corrected-analysis.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';
import type { AnnotationManifest } from '../../../domain/annotations/manifest.ts';
import type { SliceCursor } from '../frames/slice-cursor.ts';
import { isAssumed, positionAssumed } from '../../../domain/reports/acquisition-format.ts';
import { csvFileText } from '../../../domain/reports/csv-file.ts';
import { pullbackExportCsv } from '../../../domain/reports/measurements-csv.ts';
import { reportFrameSlices, type ReportFrame } from '../../../domain/reports/report-frames.ts';
import { buildReportPdf, type ReportInput } from '../../../domain/reports/report-pdf.ts';
import { useToast } from '../../ui/toast.tsx';
import { analysisAssumedNote, withAssumedColumn } from './assumed-export.ts';
import { PLOT_HEADER_PX, PullbackPlot } from './pullback-plot.tsx';
import { useSignedInEmail } from '../../auth/auth-context.tsx';
import { MAX_PLOT_HEIGHT_FRACTION, usePlotHeight } from './plot-height.ts';
import { PlotResizeHandle } from './plot-resize-handle.tsx';
import { ResultsBlock, RESULTS_BLOCK_WIDTH_PX } from './results-block.tsx';
import { CorrectionsHeld } from './corrections-held.tsx';
import { ProvisionalPlot } from './provisional-plot.tsx';
import { provisionalAnalysis } from '../../../domain/contours/provisional-contours.ts';
import { StentSection, type ShownStent } from '../stent/stent-section.tsx';
import { useStentCorrections } from '../stent/use-stent-corrections.ts';
import { stentMarkers } from './stent-markers.ts';
import { stentPendingReportSection, stentReportSection } from '../../../domain/stent/stent-report.ts';
import { stentCsvSection, stentPendingCsvSection } from '../../../domain/stent/stent-results.ts';
import { SlicesToCheck } from './slices-to-check.tsx';
import { LMODE_STRIP_HEIGHT_PX, LmodeStrip, type LmodeStripSource } from './lmode-strip.tsx';
import { SendToPacsButton } from '../pacs/send-to-pacs-button.tsx';
import { downloadFile, reportFont } from './report-pdf.ts';
import type { RecordContoursState } from './use-record-contours.ts';
import { useGating } from '../gating/use-gating.ts';
import { GatingControls } from '../gating/gating-controls.tsx';
import { GatedFiguresNote } from '../gating/gated-figures-note.tsx';
import { CalciumResults } from '../calcium/calcium-results.tsx';
import { calciumExportCsv, useHandCalciumArcs, useRecordCalcium } from '../calcium/use-record-calcium.ts';
import { calciumReportSection } from '../../../domain/calcium/calcium-report.ts';
import type { RecordCalcium } from '../../../domain/calcium/record-calcium.ts';
import { gatedCsvSection, gatedReportSection, gatingToExport } from '../../../domain/gating/gated-export.ts';
import { heldFiguresText, savedContourCorrections, useCorrectionsGate } from '../manifest/saved-corrections.ts';

/**
 * The detected contours with the clinician's corrections, measured; null until detection is done,
 * and null until the saved corrections are loaded (saved-corrections.ts: never the uncorrected
 * figures meanwhile; everything downstream waits on this analysis). Memoised on the manifest's contours alone: with key frames the analysis costs about a second on a
 * 3,600-frame pullback, and a ruler drag, a note or a label must not pay it again.
 */
export function useCorrectedAnalysis(state: RecordContoursState, annotations: AnnotationStore | null, geometry: PullbackGeometry): CorrectedAnalysis | null {
  const corrections = useSyncExternalStore(annotations?.subscribe ?? NO_SUBSCRIBE, () => (annotations ? savedContourCorrections(annotations.getSnapshot(), NO_CORRECTIONS) : null));
  const contours = state.status === 'ready' ? state.contours : null;
  return useMemo(
    () => (contours && corrections ? correctedAnalysis(contours, { contours: corrections }, geometry) : null),
    [contours, corrections, geometry.frameRateHz, geometry.pullbackSpeedMmPerS], // eslint-disable-line react-hooks/exhaustive-deps -- the geometry's two numbers are its identity
  );
}
/** One empty list for every manifest without corrections, so that its absence reads as no change. */
const NO_CORRECTIONS: NonNullable<AnnotationManifest['contours']> = [];
const NO_SUBSCRIBE = () => () => {};

export interface PullbackAnalysisProps {
  state: RecordContoursState;
  result: CorrectedAnalysis | null;
  /** The review's slice cursor: the plot and the slices to check show it and move it. */
  cursor: SliceCursor;
  annotations: AnnotationStore;
  /** `record.studyInstanceUid`: the record's DICOM study, where Send to PACS stores the report (none on a demo record). */
  /** The L-mode the panels show, for the strip above the plot; none without a pullback. */
  lmode?: (LmodeStripSource & { geometry: PullbackGeometry }) | null | undefined;
  report: (Omit<ReportInput, 'result' | 'manifest' | 'madeAt' | 'frames'> & { record: { studyInstanceUid?: string | null | undefined } }) | null;
  /** The B-mode frame at a 1-based slice, if loaded: the report shows the MLA and reference frames with their borders. */
  frameAt?: (slice: number) => ReportFrame | null;
  /** Issue 28: told the stent's borders by slice whenever the stent is read (the B-mode frame draws them), null before. */
  onStentBorders?: (borders: ReadonlyMap<number, readonly number[]> | null) => void;
  /** Issue 28: told the record's calcium whenever it changes (the B-mode frame draws the slice's arc), null before. */
  onCalcium?: (calcium: RecordCalcium | null) => void;
  /** Asks for the saved annotations again after they failed to load (the figures wait for them). */
  onRetryCorrections?: () => void;
}

/**
 * The collapsible drawer under the panels: the lumen-area and plaque-burden plot, the MLA and plaque
 * summary, the exports, and the low-confidence slices to step through (shown even when collapsed).
 */
export function PullbackAnalysis({ state, result: allFramesResult, cursor, annotations, lmode, report, frameAt, onStentBorders, onCalcium, onRetryCorrections }: PullbackAnalysisProps) {
  // Until the saved corrections are in, the analysis is null (useCorrectedAnalysis): this says why in its place.
  const held = heldFiguresText(useCorrectionsGate(annotations));
  // Gating on request (issue 28): the figures shown are then those of the gated frames; the exports keep all frames.
  const { gating, gatedFrames, result } = useGating(lmode, allFramesResult);
  // The L-mode panel follows the same toggle: it shows the gated L-mode while gating is on.
  const pageLmode = lmode?.image;
  useEffect(() => {
    pageLmode?.setGatedFrames(gatedFrames);
    return () => pageLmode?.setGatedFrames(null);
  }, [pageLmode, gatedFrames]);
  const [open, setOpen] = useState(true);
  // Issue 28: the stent's results once read (the plot draws its area, the CSV adds its figures).
  const [stent, setStent] = useState<ShownStent | null>(null);
  // Issue 23: the borders are final, the server still reads the stent (the section, CSV and PDF say so).
  const stentPending = state.status === 'ready' && state.contours.stentPending === true;
  // The stent borders corrected by hand on the B-mode frame (contour tool): the stent is measured again with them.
  const stentCorrections = useStentCorrections(annotations);
  const stentAreas = useMemo(() => {
    if (stent === null || allFramesResult === null || stent.results.segment === null) return null;
    const areas: (number | null)[] = allFramesResult.slices.map(() => null);
    for (const s of stent.results.slices) areas[s.slice - 1] = s.areaMm2;
    return areas;
  }, [stent, allFramesResult]);
  const results = stent?.results ?? null;
  useEffect(() => {
    if (!onStentBorders) return;
    onStentBorders(results === null ? null : new Map(results.slices.flatMap((s) => (s.border === null ? [] : [[s.slice, s.border] as const]))));
    // When the results column goes (another record, no pullback), the frame no longer shows this stent.
    return () => onStentBorders(null);
  }, [results, onStentBorders]);
  const stentPlotMarkers = useMemo(() => (stent === null ? [] : stentMarkers(stent, allFramesResult?.slices.length)), [stent, allFramesResult]);
  // Issue 23: while the detection runs, the figures of the frames detected so far, labelled provisional.
  // They are the detector's alone: held back too while the saved corrections are on their way.
  const provisional = state.status === 'processing' && lmode && held === null ? state.provisional : null;
  const pullbackGeometry = lmode?.geometry;
  const provisionalResult = useMemo(
    () => (provisional && pullbackGeometry ? provisionalAnalysis(provisional, framesPerMm(pullbackGeometry)) : null),
    [provisional, pullbackGeometry],
  );
  const [width, setWidth] = useState(0);
  // The strip and the plot's column: its width is their x axis.
  const plotColumnRef = useRef<HTMLDivElement>(null);
  const toast = useToast();
  // The plot's height is remembered per user (plot-height.ts).
  const [plotHeight, setPlotHeight] = usePlotHeight(useSignedInEmail());
  // Re-read on corrected borders from the loaded frames, and the clinician's own arcs over all (issue 28).
  const calcium = useRecordCalcium(state.status === 'ready' ? state.contours : null, allFramesResult, frameAt, useHandCalciumArcs(annotations));
  useEffect(() => {
    if (!onCalcium) return;
    onCalcium(calcium);
    return () => onCalcium(null);
  }, [calcium, onCalcium]);
  useEffect(() => {
    const element = plotColumnRef.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => setWidth(entry?.contentRect.width ?? 0));
    observer.observe(element);
    return () => observer.disconnect();
  }, [open]);

  // A file name carries no invented date: an unknown acquisition date is written 'undated'.
  const fileDate = report && (isAssumed(report.record, 'acquiredAt') ? 'undated' : report.record.acquiredAt.slice(0, 10));
  const fileStem = report ? `ivus-${report.patient.patientId}-${fileDate}` : 'ivus-pullback';
  // Issue 28: while gating is on and found cycles, the exports add the gated figures as their own section.
  const gatedExport = () => gatingToExport(gating?.getSnapshot());
  const gatedCsv = (all: CorrectedAnalysis): string => {
    const gated = gatedExport();
    return gated && lmode ? gatedCsvSection(all, gated, lmode.geometry) : '';
  };
  const exportCsv = () =>
    allFramesResult &&
    downloadFile(
      csvFileText(
        (report
          ? // The clinician's own measurements follow the per-slice table, as a table of their own.
            pullbackExportCsv(withAssumedColumn(measurementsCsv(allFramesResult), report.record), annotations.getSnapshot().manifest, report.figures)
          : measurementsCsv(allFramesResult)) +
          gatedCsv(allFramesResult) +
          calciumExportCsv(calcium, allFramesResult),
      ) + (stent !== null ? `\n${stentCsvSection(stent.results, stent.figures, stent.manualSlices)}` : stentPending ? `\n${stentPendingCsvSection()}` : ''),
      `${fileStem}-measurements.csv`,
      'text/csv;charset=utf-8',
    );
  const assumedNote = report ? analysisAssumedNote(report.record, report.figures) : null;
  const exportPdf = () => {
    const all = allFramesResult;
    if (!all || !report) return;
    reportFont()
      .then((font) => {
        // The frames shown are those loaded: a frame not loaded yet is left out rather than waited for.
        const frames = reportFrameSlices(all).flatMap(({ role, slice }) => {
          const frame = frameAt?.(slice);
          return frame ? [{ role, slice, frame }] : [];
        });
        const gated = gatedExport();
        const sections = [...(gated && lmode ? [gatedReportSection(all, gated, lmode.geometry)] : []), ...(calcium ? [calciumReportSection(calcium)] : [])];
        // Issue 28: the stent's section only once the clinician has read the stent.
        if (stent !== null) sections.push(stentReportSection(stent.results, stent.figures, stent.manualSlices));
        else if (stentPending) sections.push(stentPendingReportSection());
        return buildReportPdf({ ...report, result: all, manifest: annotations.getSnapshot().manifest, madeAt: new Date(), frames, frameAt, sections }, font);
      })
      .then((bytes) => downloadFile(bytes, `${fileStem}-report.pdf`, 'application/pdf'))
      .catch((error: unknown) => toast.show({ severity: 'error', summary: 'The report could not be made', detail: error instanceof Error ? error.message : String(error) }));
  };

  return (
    <Box flexShrink={0}>
      <HStack px="2" py="0.5" borderTopWidth="1px" gap="2">
        <Button size="xs" variant="ghost" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? '▾' : '▸'} Pullback analysis
        </Button>
        {state.status === 'processing' ? (
          <Text textStyle="xs" color="fg.muted" data-testid="contours-status">
            Detecting lumen and vessel borders… {state.done.toLocaleString('en-US')} of {state.total.toLocaleString('en-US')} frames
          </Text>
        ) : state.status === 'loading' ? (
          <Text textStyle="xs" color="fg.muted" data-testid="contours-status">
            Loading lumen and vessel contours…
          </Text>
        ) : state.status === 'error' ? (
          <Text textStyle="xs" color="fg.error" role="alert" data-testid="contours-status">
            Lumen and vessel contours unavailable: {state.message}
          </Text>
        ) : held !== null ? (
          <CorrectionsHeld text={held} onRetry={onRetryCorrections} />
        ) : null}
        {result ? <SlicesToCheck slices={result.lowConfidenceSlices} noBorder={result.noBorderSlices} source={cursor} /> : null}
        {gating ? <GatingControls gating={gating} source={cursor} /> : null}
        <CalciumResults calcium={calcium} cursor={cursor} annotations={annotations} />
        <HStack marginInlineStart="auto" gap="1">
          {/* The exports beside Send to PACS: what leaves the review, in one place. */}
          {result ? (
            <>
              <Button size="xs" variant="outline" onClick={exportCsv}>
                Export CSV
              </Button>
              <Button size="xs" variant="outline" onClick={exportPdf}>
                PDF report
              </Button>
            </>
          ) : null}
          {report ? <SendToPacsButton recordId={report.record.recordId} studyInstanceUid={report.record.studyInstanceUid} annotations={annotations} gating={() => gating?.getSnapshot().on ?? false} heldReason={held} /> : null}
        </HStack>
      </HStack>
      {open ? (
        <>
          <PlotResizeHandle height={plotHeight} maxHeight={Math.round(MAX_PLOT_HEIGHT_FRACTION * window.innerHeight)} onResize={setPlotHeight} />
          <HStack align="start" gap="0" bg="bg.subtle">
            {state.status !== 'error' ? (
              // As tall as the plot beside it, scrolling within: with the stent's results under the lesion's the column is
              // taller than the plot, and growing with it would push the panels above out of the window.
              <Box width={`${RESULTS_BLOCK_WIDTH_PX}px`} flexShrink={0} alignSelf="stretch" position="relative" minHeight="40">
                <Stack gap="0" position="absolute" inset="0" overflowY="auto" data-testid="pullback-results-column">
                  <ResultsBlock
                    result={result ?? provisionalResult}
                    cursor={cursor}
                    positionAssumed={report ? positionAssumed(report.record) : false}
                    provisional={!result && provisional ? provisional : null}
                    held={result ? null : held}
                  />
                  {/* Issue 28: the stent's results under the lesion's, read from the loaded frames on request. */}
                  {allFramesResult && lmode && frameAt ? <StentSection result={allFramesResult} stored={state.status === 'ready' ? state.contours.stent : undefined} pending={stentPending} cursor={cursor} frameAt={frameAt} pixelSpacingMm={lmode.pixelSpacingMm} framesPerMm={framesPerMm(lmode.geometry)} onResults={setStent} corrections={stentCorrections} store={annotations} /> : null}
                </Stack>
              </Box>
            ) : null}
            <Box ref={plotColumnRef} flex="1" minWidth="0">
              {gatedFrames ? <GatedFiguresNote count={gatedFrames.length} /> : null}
              {lmode ? (
                // Beside the plot's padding, on the plot's own x axis; its height is kept before it can draw.
                <Box px="2" pt="1">
                  <Box height={`${LMODE_STRIP_HEIGHT_PX}px`}>{width > 0 ? <LmodeStrip {...lmode} analysis={result} cursor={cursor} annotations={annotations} width={width - 16} gatedFrames={gatedFrames} calcium={calcium?.bySlice ?? null} /> : null}</Box>
                </Box>
              ) : null}
              {result && width > 0 ? (
                <PullbackPlot result={result} cursor={cursor} width={width - 16} height={plotHeight} assumedNote={assumedNote} stentAreas={stentAreas} extraMarkers={stentPlotMarkers} />
              ) : provisional && width > 0 ? (
                <ProvisionalPlot provisional={provisional} width={width - 16} height={plotHeight} />
              ) : state.status !== 'error' ? (
                // The plot's room, kept while the borders are on their way (see PLOT_HEADER_PX).
                <Box height={`${plotHeight + PLOT_HEADER_PX}px`} data-testid="pullback-analysis-pending" />
              ) : null}
            </Box>
          </HStack>
        </>
      ) : null}
    </Box>
  );
}
