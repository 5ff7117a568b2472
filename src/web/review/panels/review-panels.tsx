import { Box, Flex } from '@chakra-ui/react';
import { Fragment, useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ImageStore } from '../frames/image-store.ts';
import type { SliceCursor } from '../frames/slice-cursor.ts';
import { createCutAngleStore, type CutAngleStore } from '../lmode/cut-angle.ts';
import type { PageLmode } from '../lmode/page-lmode.ts';
import { createPanelDisplays, type PanelDisplays } from '../view/brightness-contrast.ts';
import { ImagePanel } from './image-panel.tsx';
import type { PanelKind } from './panel-controller.ts';
import type { PanelViewportSource } from '../view/view-transform.ts';
import { collapseMissing, DEFAULT_PANEL_SIZES, MIN_PANEL_PERCENT, moveSplitter, panelWidths, type PanelSizes } from './panel-sizes.ts';
import { PanelSplitter } from './panel-splitter.tsx';

/**
 * The angio and L-mode panels start their WebGL contexts once the first B-mode frame is shown and
 * Play could start, or after this long when that does not come (a chunk failed). Not sooner:
 * creating the two contexts and compiling their shaders holds the main thread (about 0.5 s in
 * software WebGL, on a first open's busy CPU), which went in front of the first B-mode image on a
 * busy machine and then of the chunks Play waits for (issue 27).
 */
const SECONDARY_PANELS_DELAY_MS = 5000;

const PANELS: readonly { kind: PanelKind; label: string }[] = [
  { kind: 'angio', label: 'Angio' },
  { kind: 'bmode', label: 'B-mode' },
  { kind: 'lmode', label: 'L-mode' },
];

export interface ReviewPanelsProps {
  store: ImageStore;
  /** The review's slice cursor: the panels' input moves the slice only through it. */
  cursor: SliceCursor;
  /** Told when a drag on a panel starts and ends (playback pauses automatically meanwhile). */
  onPanelDrag?: (dragging: boolean) => void;
  /** DOM layers over panels' images: the annotations over the B-mode, the annotated slices' marks over the L-mode. */
  overlays?: Partial<Record<PanelKind, (viewport: PanelViewportSource) => ReactNode>>;
  /**
   * False holds back every WebGL context: the review passes false until the first frames are on
   * their way, so that creating a context (a long main-thread task) never delays that request.
   */
  startGpu?: boolean;
  /** Whether Play could start (its frames are in): until then the angio and L-mode panels wait with their WebGL. */
  playReady?: boolean;
  /** The record holds an angiography run only: the B-mode and L-mode panels collapse, the angio takes the row. */
  noPullback?: boolean;
  /** The record has no angiography run (a loop of other ultrasound, a pullback alone): the angio panel collapses. */
  noAngio?: boolean;
  /** The L-mode's cut and image when another view (the strip above the plot) shows them too; the panels make their own otherwise. */
  lmode?: { cutAngle: CutAngleStore; image: PageLmode } | undefined;
  /** Each panel's brightness and contrast, owned by the review session (reset with every record); the panels make their own otherwise. */
  displays?: PanelDisplays | undefined;
}

/**
 * The review's three GPU panels (angio, B-mode, L-mode) with two splitters. Panel widths are
 * percent of this row: the set sizes, with the spec's B-mode share applied (see panel-sizes.ts).
 * Must be rendered inside the review session's provider (the active tool). Each panel has its own
 * brightness and contrast (issue 26), shown with a Reset in its header; the root carries the
 * B-mode's as data-brightness / data-contrast, the image the clinician reads first.
 */
export function ReviewPanels({ store, cursor, onPanelDrag, overlays, startGpu = true, playReady = true, noPullback = false, noAngio = false, lmode, displays: sessionDisplays }: ReviewPanelsProps) {
  const [sizes, setSizes] = useState<PanelSizes>(DEFAULT_PANEL_SIZES);
  const [ownDisplays] = useState(createPanelDisplays);
  const displays = sessionDisplays ?? ownDisplays;
  const display = displays.bmode;
  const [ownCutAngle] = useState(() => createCutAngleStore());
  const cutAngle = lmode?.cutAngle ?? ownCutAngle;
  const rootRef = useRef<HTMLDivElement>(null);
  // A series the record lacks collapses its panel (issue 26); the review says so in one line above.
  const shown = [!noAngio, !noPullback, !noPullback] as const;
  const widths = collapseMissing(panelWidths(sizes), shown);
  // Creating a WebGL context and compiling its shader is a long main-thread task: the B-mode panel,
  // which the clinician looks at first, gets the thread to itself until its first frame is shown.
  const [timedOut, setTimedOut] = useState(false);
  const startAllPanels = useCallback(() => setTimedOut(true), []);
  const [bmodeShown, setBmodeShown] = useState(false);
  // After the frame that carries the first image has been produced: started at once, the other
  // contexts held the main thread (and the frame with the image) for another 150–250 ms.
  const bmodeShownAfterNextFrame = useCallback(() => requestAnimationFrame(() => requestAnimationFrame(() => setBmodeShown(true))), []);
  // Likewise after the frame that shows Play enabled (issue 27): started in the same commit, their
  // contexts (180-250 ms of main thread) held back the paint of the enabled button.
  const [playShown, setPlayShown] = useState(false);
  useEffect(() => {
    if (!playReady || playShown) return;
    let second = 0;
    const first = requestAnimationFrame(() => (second = requestAnimationFrame(() => setPlayShown(true))));
    return () => {
      cancelAnimationFrame(first);
      cancelAnimationFrame(second);
    };
  }, [playReady, playShown]);
  // Play's frames only ever grow in number while the review is open: once started, the panels stay.
  const allPanelsStarted = timedOut || (bmodeShown && playShown);
  useEffect(() => {
    if (!startGpu) return;
    const timer = setTimeout(startAllPanels, SECONDARY_PANELS_DELAY_MS);
    return () => clearTimeout(timer);
  }, [startAllPanels, startGpu]);

  // Written to the DOM directly: a brightness drag must not render React on every pointer move.
  useEffect(() => {
    const write = () => {
      const { brightness, contrast } = display.get();
      rootRef.current?.setAttribute('data-brightness', brightness.toFixed(3));
      rootRef.current?.setAttribute('data-contrast', contrast.toFixed(3));
    };
    write();
    return display.subscribe(write);
  }, [display]);

  const containerWidth = useCallback(() => rootRef.current?.clientWidth ?? 0, []);
  const move = (splitter: 0 | 1) => (deltaPercent: number) => setSizes((current) => moveSplitter(current, splitter, deltaPercent));

  return (
    <Flex ref={rootRef} flex="1" minHeight="0" minWidth="0" data-testid="review-panels" data-panel-sizes={sizes.join(',')} p="1" bg="bg.muted">
      {PANELS.map(({ kind, label }, index) => (
        <Fragment key={kind}>
          {!shown[index] ? null : (
            <ImagePanel
              kind={kind}
              label={label}
              widthPercent={widths[index]!}
              store={store}
              cursor={cursor}
              display={displays[kind]}
              onDragChange={onPanelDrag}
              overlay={overlays?.[kind]}
              // Without a pullback no B-mode image will come to start the angio panel.
              startGpu={startGpu && (kind === 'bmode' || allPanelsStarted || noPullback)}
              onFirstImage={kind === 'bmode' ? bmodeShownAfterNextFrame : undefined}
              cutAngle={cutAngle}
              lmode={kind === 'lmode' ? lmode?.image : undefined}
            />
          )}
          {index < 2 && shown[index] && shown[index + 1] ? (
            <PanelSplitter
              label={`Resize ${label} and ${PANELS[index + 1]!.label} panels`}
              value={sizes[index]!}
              min={MIN_PANEL_PERCENT}
              max={sizes[index]! + sizes[index + 1]! - MIN_PANEL_PERCENT}
              containerWidth={containerWidth}
              onMove={move(index as 0 | 1)}
            />
          ) : null}
        </Fragment>
      ))}
      {/* The points the B-mode share gives up (spec section 2) stay free at the end of the row. */}
      <Box flex="1" minWidth="0" />
    </Flex>
  );
}
