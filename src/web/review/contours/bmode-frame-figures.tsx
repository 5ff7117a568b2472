import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import type { CutAngleStore } from '../lmode/cut-angle.ts';
import { CUT_HANDLE_SIZE_PX, cutLineOnScreen } from '../lmode/cut-line.tsx';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import { useActiveTool } from '../tools/active-tool.tsx';
import { imageToScreen, type PanelViewport, type PanelViewportSource } from '../view/view-transform.ts';
import { BordersVisibilityContext, createBordersVisibility, useBordersShown } from './borders-visibility.ts';
import { FrameReadout, READOUT_LAYOUTS } from './frame-readout.tsx';
import { borderLinesFor, fieldOfViewOnScreen, ReadOnlyBorders, stentBorderOn } from './read-only-borders.tsx';
import type { FrameLinesTarget } from '../panels/frame-lines.ts';
import { createFrameBoxes, FrameBoxesContext, useFrameBoxes, usePublishedBox } from './frame-boxes.ts';
import { cutHandleRect, frameObstacles } from './readout-placement.ts';
import { ScaleBar, scaleBarRect } from './scale-bar.tsx';
import { usePlacedBox } from './use-placed-box.ts';
import { StentBorderOverlay } from './stent-border-overlay.tsx';
import type { StentBorderCorrection } from '../../../domain/annotations/stent-corrections.ts';
import { CalciumArcOverlay } from '../calcium/calcium-arc-overlay.tsx';
import { calciumOrigin, type RecordCalcium } from '../../../domain/calcium/record-calcium.ts';

/** The current slice, as the image store holds it. */
export interface SliceSource {
  subscribe: (listener: () => void) => () => void;
  getSnapshot: () => { readonly slice: number };
}

export interface BmodeFrameFiguresProps {
  /** The B-mode panel: where the image is, and (its controller) the scene the read-only borders are drawn in. */
  viewport: PanelViewportSource & Partial<FrameLinesTarget>;
  slices: SliceSource;
  /** The borders after corrections, null while none is known. */
  analysis: CorrectedAnalysis | null;
  /** Why there are no borders yet (detection under way, failed). */
  pending: string | null;
  pixelSpacingMm: number;
  /** The pixel spacing is not from the files: the scale bar says "(assumed)". */
  pixelSpacingAssumed: boolean;
  /** The L-mode cut line's angle: its handle on the frame is kept clear of the readout and the cards. */
  cutAngle?: CutAngleStore | undefined;
  /** The annotation overlay: inside, the contour tool draws the editable borders and its own readout. */
  children: ReactNode;
  /** Issue 28: once the stent is read, its border by slice (the five harmonic coefficients, mm), drawn read-only with the others. */
  stentBorders?: ReadonlyMap<number, readonly number[]> | null | undefined;
  /** The stent borders corrected by hand (the manifest's): drawn as drawn on their slices once the stent is read. */
  stentCorrections?: readonly StentBorderCorrection[] | undefined;
  /** Issue 28: the calcium arcs by slice as the score counts them, drawn read-only with the borders. */
  calciumArcs?: RecordCalcium | null | undefined;
}

const NO_CUT_ANGLE: CutAngleStore | null = null;
const NO_STENT_CORRECTIONS: readonly StentBorderCorrection[] = [];
const noSubscription = () => () => {};

/** Publishes the scale bar's box and the cut handle's (where the angle puts it) for the readout and the cards to keep clear of. */
function FixedFrameBoxes({ viewport, cutAngle }: { viewport: PanelViewport; cutAngle: CutAngleStore | null }) {
  const angle = useSyncExternalStore(cutAngle?.subscribe ?? noSubscription, () => cutAngle?.get() ?? null);
  usePublishedBox('scale-bar', scaleBarRect(viewport.viewportSize));
  const handle = angle === null ? null : cutLineOnScreen(viewport.transform, viewport.imageSize, angle).handle;
  usePublishedBox('cut-handle', handle ? cutHandleRect(handle, CUT_HANDLE_SIZE_PX) : null);
  return null;
}

/** Outside the contour tool: the borders as lines (when switched on) and the frame's readout, clear of them. */
function FiguresOutsideContourTool({
  viewport,
  lines,
  slices,
  analysis,
  pending,
  stentBorders,
  stentCorrections,
  pixelSpacingMm,
  calciumArcs = null,
}: {
  viewport: PanelViewport;
  lines: Partial<FrameLinesTarget>;
  slices: SliceSource;
  analysis: CorrectedAnalysis | null;
  pending: string | null;
  stentBorders: ReadonlyMap<number, readonly number[]> | null;
  stentCorrections: readonly StentBorderCorrection[];
  pixelSpacingMm: number;
  calciumArcs?: RecordCalcium | null;
}) {
  const slice = useSyncExternalStore(slices.subscribe, () => slices.getSnapshot().slice);
  const shown = useBordersShown();
  const measurement = analysis?.slices[slice - 1] ?? null;
  const stent = stentBorderOn(slice, { stentBorders, stentCorrections });
  // The lines are drawn by the panel with each slice's image (issue 27); re-given only when what they come from changes.
  useEffect(() => {
    if (!shown || !lines.setFrameLines) return;
    lines.setFrameLines(borderLinesFor({ analysis, stentBorders, stentCorrections, pixelSpacingMm, calciumArcs }));
    return () => lines.setFrameLines?.(null);
  }, [lines, shown, analysis, stentBorders, stentCorrections, pixelSpacingMm, calciumArcs]);
  const calciumArc = calciumArcs?.bySlice[slice - 1] ?? null;
  const { transform, imageSize, viewportSize } = viewport;
  const screen = {
    lumen: (measurement?.controlPoints ?? []).map((p) => imageToScreen(transform, p)),
    vessel: (measurement?.vessel?.controlPoints ?? []).map((p) => imageToScreen(transform, p)),
  };
  const cutHandle = useFrameBoxes()['cut-handle'];
  const obstacles = frameObstacles([screen.lumen, screen.vessel], fieldOfViewOnScreen(transform, imageSize), [scaleBarRect(viewportSize), ...(cutHandle ? [cutHandle] : [])]);
  const { ref: readoutRef, placement, layout } = usePlacedBox(viewportSize, obstacles, READOUT_LAYOUTS);
  usePublishedBox('readout', placement.rect);
  return (
    <>
      {shown && measurement ? <ReadOnlyBorders borders={(['lumen', 'vessel'] as const).filter((border) => screen[border].length >= 3)} slice={slice} /> : null}
      {shown && stent ? <StentBorderOverlay controlPoints={stent.controlPoints} slice={slice} /> : null}
      {shown && calciumArc && calciumArc.arcDeg > 0 && measurement ? (
        <CalciumArcOverlay calcium={calciumArc} origin={calciumOrigin(calciumArcs!, slice)} slice={slice} />
      ) : null}
      <FrameReadout ref={readoutRef} measurement={measurement} pending={pending} at={placement.rect} layout={layout} />
    </>
  );
}

/**
 * What an IVUS B-mode frame always shows, whatever the tool (issue 26): the borders (read-only
 * outside the contour tool, hidden and shown with one switch, O), a scale bar that follows the zoom,
 * and the readout of the frame's figures placed clear of the borders. The contour tool (inside the
 * annotation overlay, `children`) draws the editable borders and the same readout, live while a
 * point is dragged. Mounted for IVUS records only: other ultrasound gets no border and no figure.
 */
export function BmodeFrameFigures({ viewport: source, slices, analysis, pending, pixelSpacingMm, pixelSpacingAssumed, cutAngle, children, stentBorders = null, stentCorrections = NO_STENT_CORRECTIONS, calciumArcs = null }: BmodeFrameFiguresProps) {
  const [visibility] = useState(() => createBordersVisibility(true));
  const [boxes] = useState(createFrameBoxes);
  const viewport = useSyncExternalStore(source.subscribe, source.getViewport);
  const tool = useActiveTool();
  return (
    <BordersVisibilityContext value={visibility}>
      <FrameBoxesContext value={boxes}>
      {viewport ? <FixedFrameBoxes viewport={viewport} cutAngle={cutAngle ?? NO_CUT_ANGLE} /> : null}
      {children}
      {viewport ? (
        <div data-testid="bmode-frame-figures" style={{ position: 'absolute', inset: 0, pointerEvents: 'none', overflow: 'hidden' }}>
          {tool === 'contour' ? null : <FiguresOutsideContourTool viewport={viewport} lines={source} slices={slices} analysis={analysis} pending={pending} stentBorders={stentBorders} stentCorrections={stentCorrections} pixelSpacingMm={pixelSpacingMm} calciumArcs={calciumArcs} />}
          <ScaleBar transform={viewport.transform} panel={viewport.viewportSize} pixelSpacingMm={pixelSpacingMm} assumed={pixelSpacingAssumed} />
        </div>
      ) : null}
      </FrameBoxesContext>
    </BordersVisibilityContext>
  );
}
