import { Box, Flex, HStack, Heading, Stack, Text } from '@chakra-ui/react';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useSearch } from 'wouter';
import { MIN_BMODE_IMAGES_FOR_PLAYBACK } from '../../domain/constants.ts';
import type { RecordImages } from '../../domain/images.ts';
import { AnnotatedSliceMarks } from './annotations/annotated-slice-marks.tsx';
import { AnnotationOverlay } from './annotations/annotation-overlay.tsx';
import type { AnnotationStore } from './manifest/annotation-store.ts';
import { DevOverlay } from './dev/dev-overlay.tsx';
import { FramesStatus } from './frames/frames-status.tsx';
import { ReviewPanels } from './panels/review-panels.tsx';
import { SliceIndicator, useSliceNavigation } from './playback/slice-navigation.tsx';
import { useRecordImages } from './frames/use-record-images.ts';
import { framePacedSlice } from './frames/frame-paced-slice.ts';
import { useRecordContext } from '../session/use-patient-context.ts';
import { acquisitionLine, isAssumed, positionAssumed, recordTitle } from '../../domain/reports/acquisition-format.ts';
import { ErrorState } from '../ui/states.tsx';
import type { PanelViewportSource } from './view/view-transform.ts';
import { BmodeFrameFigures } from './contours/bmode-frame-figures.tsx';
import { useStentCorrections } from './stent/use-stent-corrections.ts';
import { PullbackAnalysis, useCorrectedAnalysis } from './contours/pullback-analysis.tsx';
import { useRecordContours } from './contours/use-record-contours.ts';
import { acquisitionFigures } from './session/acquisition-figures.ts';
import { useReviewSession } from './session/review-session-provider.tsx';
import { reviewScope } from './session/review-scope.ts';
import { missingSeriesNote } from './panels/missing-series.ts';
import { createCutAngleStore } from './lmode/cut-angle.ts';
import { PanelLmodeBorderLayer } from './lmode/lmode-border-layer.tsx';
import { PageLmode } from './lmode/page-lmode.ts';
import { useBmodeFrameSize } from './lmode/use-bmode-frame-size.ts';
import type { RecordCalcium } from '../../domain/calcium/record-calcium.ts';
import { heldFiguresText, useCorrectionsGate } from './manifest/saved-corrections.ts';

/** Where the saved annotations stand, beside the frames' status. */
function AnnotationsStatus({ store, onRetry }: { store: AnnotationStore; onRetry: () => void }) {
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot);
  if (snapshot.status === 'loading') return <Text textStyle="sm" color="fg.muted" data-testid="annotations-status">Loading annotations…</Text>;
  if (snapshot.status === 'error') {
    return (
      <Text textStyle="sm" color="fg.error" role="alert" data-testid="annotations-status">
        Annotations could not be loaded: {snapshot.error}{' '}
        <Text as="button" textDecoration="underline" onClick={onRetry}>
          Retry
        </Text>
      </Text>
    );
  }
  const saved = snapshot.version > 0 ? `Annotations v${snapshot.version}` : 'No saved annotations';
  return (
    <Text textStyle="sm" color="fg.muted" data-testid="annotations-status" data-version={snapshot.version}>
      {saved}
      {snapshot.saving ? ' · saving…' : ''}
    </Text>
  );
}

export interface ReviewPageProps {
  patientId: string;
  recordId: string;
  /** The record's image lists when the route has asked for them already (useRecordImages). */
  askedImages?: Promise<RecordImages> | null;
}

/** The review: which record, the three panels, and the annotations over the B-mode image. */
export function ReviewPage({ patientId, recordId, askedImages }: ReviewPageProps) {
  const { context, record, loading, error, retry } = useRecordContext(patientId, recordId);
  const search = new URLSearchParams(useSearch());
  const noImage = search.get('noImage') === 'true';
  const dev = search.get('dev') === 'true';
  // The open record's session (created by the route) owns the frames, the slice cursor, playback and the annotations.
  const session = useReviewSession();
  const { cursor, annotations } = session;
  useEffect(() => session.setRecord(record), [session, record]);
  const { state: images, store } = useRecordImages(recordId, !noImage, session.images, askedImages);
  useSliceNavigation(cursor);
  const holdPlayback = session.playback.hold;
  const releaseRef = useRef<(() => void) | null>(null);
  // Automatic playback pauses while the user drags on a panel (spec: auto pause), then resumes.
  const onPanelDrag = useCallback(
    (dragging: boolean) => {
      releaseRef.current?.();
      releaseRef.current = dragging ? holdPlayback() : null;
    },
    [holdPlayback],
  );
  const missing = !loading && !record;
  // Only IVUS is analysed as IVUS (issue 26): other ultrasound is viewed and measured by hand only.
  const scope = reviewScope(record);

  // Without images (noImage=true) the record's frame size still places the annotations.
  const { frameWidth, frameHeight, bmodeFrameCount } = record ?? {};
  useEffect(() => {
    if (noImage && frameWidth && frameHeight && bmodeFrameCount) store.setGeometry({ width: frameWidth, height: frameHeight, count: bmodeFrameCount });
  }, [noImage, store, frameWidth, frameHeight, bmodeFrameCount]);

  const { frameRateHz, pullbackSpeedMmPerS, pixelSpacingMm, noPullback, noAngio, shown: shownFigures } = useMemo(
    () => acquisitionFigures(images.status === 'ready' ? images.images : null, record, { pullback: scope.analysed }),
    [images, record, scope.analysed],
  );
  // A series the record lacks collapses its panel; one line says which (none while the record is unknown).
  const seriesNote = record ? missingSeriesNote({ pullback: noPullback, angio: noAngio }) : null;
  const geometry = useMemo(() => ({ frameRateHz, pullbackSpeedMmPerS }), [frameRateHz, pullbackSpeedMmPerS]);
  // The contours wait until playback could start: their request (and, on a first visit, the
  // server's detection) must not compete with the first frames for the network and the CPU.
  const framesUnderWay = useSyncExternalStore(store.subscribe, () => store.getSnapshot().bmodeLoaded < MIN_BMODE_IMAGES_FOR_PLAYBACK && store.getSnapshot().bmodeLoaded < (store.size('bmode')?.count ?? 0));
  const contoursState = useRecordContours(
    recordId,
    // Asked only of a record known to be an IVUS pullback (the server refuses other ultrasound).
    scope.analysed && record !== null && !noPullback && (images.status === 'off' || images.status === 'error' || (images.status === 'ready' && !framesUnderWay)),
  );
  const analysis = useCorrectedAnalysis(contoursState, annotations.store, geometry);
  // The L-mode's cut and image, shared by the L-mode panel and the strip above the plot (issue 25).
  // The strip follows the L-mode panel's brightness and contrast (issue 26).
  const lmodeViews = useMemo(() => ({ cutAngle: createCutAngleStore(), image: new PageLmode(store), display: session.displays.lmode }), [store, session]);
  const bmodeFrame = useBmodeFrameSize(store);
  const lmodeStrip = useMemo(() => ({ store, ...lmodeViews, pixelSpacingMm, geometry }), [store, lmodeViews, pixelSpacingMm, geometry]);
  // Issue 28: the stent's borders by slice once the clinician reads the stent (results column), drawn on the B-mode frame.
  const [stentBorders, setStentBorders] = useState<ReadonlyMap<number, readonly number[]> | null>(null);
  // ...and those the clinician corrected by hand (contour tool), drawn as drawn.
  const stentCorrections = useStentCorrections(annotations.store);
  // Issue 28: the calcium as the score counts it (re-read on corrected borders, set by hand), the slice's arc drawn on the B-mode frame.
  const [calciumArcs, setCalciumArcs] = useState<RecordCalcium | null>(null);
  // The borders and the frame's figures wait for the saved corrections too (manifest/saved-corrections.ts).
  const correctionsHeld = heldFiguresText(useCorrectionsGate(annotations.store));
  const contourPending =
    contoursState.status === 'processing'
      ? `Detecting lumen and vessel borders… ${contoursState.done} of ${contoursState.total} frames`
      : contoursState.status === 'error'
        ? `Lumen and vessel contours unavailable: ${contoursState.message}`
        : contoursState.status === 'loading'
          ? 'Loading lumen and vessel contours…'
          : correctionsHeld;
  const figures = useMemo(() => ({ pixelSpacingMm, frameRateHz, pullbackSpeedMmPerS }), [pixelSpacingMm, frameRateHz, pullbackSpeedMmPerS]);
  const spacingAssumed = record ? isAssumed(record, 'pixelSpacing') : false;
  // The frame's borders and readout follow the slice once per painted frame, not once per playback tick.
  const paintedSlice = useMemo(() => framePacedSlice(store), [store]);
  const overlays = useMemo(
    () => ({
      bmode: (viewport: PanelViewportSource) => {
        const overlay = (
          <AnnotationOverlay
            viewport={viewport}
            images={store}
            annotations={annotations.store}
            pixelSpacingMm={pixelSpacingMm}
            contours={scope.analysed ? { analysis, pending: contourPending, stentBorders } : undefined}
          />
        );
        // Borders, scale bar and the frame's figures whatever the tool, on IVUS only (issue 26).
        return scope.analysed ? (
          <BmodeFrameFigures viewport={viewport} slices={paintedSlice} analysis={analysis} pending={contourPending} pixelSpacingMm={pixelSpacingMm} pixelSpacingAssumed={spacingAssumed} cutAngle={lmodeViews.cutAngle} stentBorders={stentBorders} stentCorrections={stentCorrections} calciumArcs={calciumArcs}>
            {overlay}
          </BmodeFrameFigures>
        ) : (
          overlay
        );
      },
      lmode: (viewport: PanelViewportSource) => (
        <>
          <PanelLmodeBorderLayer lmode={lmodeViews.image} viewport={viewport} frame={bmodeFrame} analysis={analysis} cutAngle={lmodeViews.cutAngle} annotations={annotations.store} pixelSpacingMm={pixelSpacingMm} testId="lmode-panel-borders" />
          <AnnotatedSliceMarks viewport={viewport} images={store} annotations={annotations.store} />
        </>
      ),
    }),
    [annotations, store, paintedSlice, pixelSpacingMm, spacingAssumed, analysis, contourPending, scope.analysed, bmodeFrame, lmodeViews, stentBorders, stentCorrections, calciumArcs],
  );

  return (
    <Flex direction="column" height="full">
      <HStack as="header" px="4" py="2" borderBottomWidth="1px" gap="4" minHeight="12">
        <Stack gap="0" minWidth="0">
          <HStack gap="4">
            <Heading as="h1" size="md">
              {record ? recordTitle('Review', record) : 'Review'}
            </Heading>
            {context ? (
              <Text color="fg.muted" textStyle="sm">
                {context.patient.name} · {context.patient.patientId}
                {record ? ` · ${record.modality}` : ''}
              </Text>
            ) : null}
            {scope.label ? (
              <Text textStyle="sm" fontWeight="semibold" color="fg.warning" data-testid="imaging-kind">
                {scope.label}
              </Text>
            ) : null}
          </HStack>
          {record ? (
            // What measurements rest on; a figure the files did not give is marked, never shown as read.
            <Text color="fg.muted" textStyle="xs" data-testid="acquisition-facts">
              {acquisitionLine(record, shownFigures)}
            </Text>
          ) : null}
        </Stack>
        <HStack marginInlineStart="auto" gap="4">
          <AnnotationsStatus store={annotations.store} onRetry={annotations.reload} />
          <FramesStatus state={images} store={store} />
          <SliceIndicator source={cursor} position={noPullback || !scope.analysed ? 'none' : record && positionAssumed(record) ? 'assumed' : 'measured'} />
        </HStack>
      </HStack>
      {error && !record ? (
        <Box p="4">
          <ErrorState title="The record could not be loaded" message={error.message} onRetry={retry} />
        </Box>
      ) : missing ? (
        <Box p="4">
          <ErrorState title="Record not found" message={`Patient ${patientId} has no record ${recordId}.`} />
        </Box>
      ) : (
        <>
          {seriesNote ? (
            <Text px="4" py="1" textStyle="sm" color="fg.muted" borderBottomWidth="1px" data-testid="missing-series-note">
              {seriesNote}
            </Text>
          ) : null}
          <ReviewPanels
            store={store}
            cursor={cursor}
            onPanelDrag={onPanelDrag}
            overlays={overlays}
            lmode={lmodeViews}
            displays={session.displays}
            startGpu={images.status !== 'loading'}
            playReady={!framesUnderWay}
            noPullback={noPullback}
            noAngio={noAngio}
          />
        </>
      )}
      {record && context && !noPullback && scope.analysed ? (
        <PullbackAnalysis
          state={contoursState}
          result={analysis}
          cursor={cursor}
          lmode={lmodeStrip}
          annotations={annotations.store}
          report={{ patient: context.patient, record: { ...record, recordId }, figures, review: record.annotation ?? null }}
          onStentBorders={setStentBorders}
          onCalcium={setCalciumArcs}
          onRetryCorrections={annotations.reload}
          frameAt={(slice) => {
            const size = store.size('bmode');
            const pixels = store.bmodeFrameAt(slice);
            return size && pixels ? { width: size.width, height: size.height, pixels } : null;
          }}
        />
      ) : null}
      {dev ? <DevOverlay store={store} /> : null}
    </Flex>
  );
}
