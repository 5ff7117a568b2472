import type { Application } from 'pixi.js';
import type { ImageStore, ImageStoreSnapshot } from '../frames/image-store.ts';
import type { SliceCursor } from '../frames/slice-cursor.ts';
import { DEFAULT_CUT_ANGLE_DEG, type CutAngleStore } from '../lmode/cut-angle.ts';
import type { BorderLines, BorderLinesTarget } from '../lmode/border-lines.ts';
import type { LmodeImage } from '../lmode/lmode-image.ts';
import { lmodeColumnLength } from '../lmode/lmode-sampling.ts';
import { PageLmode } from '../lmode/page-lmode.ts';
import { frameWrite } from '../frames/next-frame.ts';
import type { ActiveToolStore } from '../tools/active-tool.tsx';
import type { BrightnessContrastStore } from '../view/brightness-contrast.ts';
import { loadedRuns, lmodeSliceToX, lmodeXToSlice } from '../view/lmode-mapping.ts';
import { PanelRenderer, type PanelImage } from './panel-renderer.ts';
import { shownFrameFor } from './shown-frame.ts';
import { drawFrameLines, strokeBorderLinesOn, type FrameLine, type FrameLinesFor, type FrameLinesTarget } from './frame-lines.ts';
import { CUT_LINE_COLOR, CUT_LINE_DASH_PX, CUT_LINE_WIDTH_PX, cutLineInImage } from '../lmode/cut-line.tsx';
import { connectPanelTools, type PanelToolTarget } from '../tools/panel-tools.ts';
import { DEFAULT_VIEW, imageToScreen, panBy, zoomAt, type FitMode, type ImagePoint, type Size, type PanelViewport, type PanelViewportSource, type ViewState, type ViewTransform } from '../view/view-transform.ts';

function sameViewport(a: PanelViewport | null, b: PanelViewport): boolean {
  if (!a) return false;
  const t = a.transform;
  const u = b.transform;
  return (
    t.x === u.x && t.y === u.y && t.scaleX === u.scaleX && t.scaleY === u.scaleY &&
    a.imageSize.width === b.imageSize.width && a.imageSize.height === b.imageSize.height &&
    a.viewportSize.width === b.viewportSize.width && a.viewportSize.height === b.viewportSize.height
  );
}

export type PanelKind = 'angio' | 'bmode' | 'lmode';

const LOADED_COLOR = 0x38bdf8;
const LOADED_STRIP_PX = 4;
/** How often the L-mode panel redraws its loading progress while chunks arrive. */
const PROGRESS_REDRAW_MS = 250;
const BLACK: PanelImage = { width: 1, height: 1, data: null };

/**
 * The image a panel shows for the store's current state. The L-mode is the one built in the page
 * (`lmode`); black before it exists, at its future size so the cursor sits where it will.
 */
export function panelImage(kind: PanelKind, store: ImageStore, snapshot: ImageStoreSnapshot, lmode: Pick<LmodeImage, 'width' | 'height' | 'data' | 'revision'> | null = null): PanelImage {
  if (kind === 'lmode') {
    if (lmode) return { width: lmode.width, height: lmode.height, data: lmode.data, revision: lmode.revision };
    const bmode = store.size('bmode');
    return bmode ? { width: bmode.count, height: lmodeColumnLength(bmode.width, bmode.height), data: null } : BLACK;
  }
  const size = store.size(kind);
  if (!size) return BLACK;
  const data = kind === 'bmode' ? store.bmodeFrameAt(snapshot.slice) : store.angioFrameAt(snapshot.slice);
  return { width: size.width, height: size.height, data };
}

/**
 * What a panel does when the image store changes:
 * - 'none': nothing it shows changed (the play counter, the downloading flag);
 * - 'same-image': the picture on screen is still right: a slice change within one angio frame (it
 *   lasts ~30 slices), any slice on the L-mode image (its cursor is a DOM line moved on its own),
 *   or a chunk arriving for other slices. While loading, a dozen chunks a second would otherwise
 *   redraw every panel each time;
 * - 'progress': the same, but B-mode frames arrived: the L-mode samples their columns and moves its
 *   loading strip (redrawn a few times a second);
 * - 'redraw': draw again, on the next animation frame (the first image at once).
 * `sameImage`: whether the image the panel would show for `next` is the one on screen.
 */
export function storeChangeFor(kind: PanelKind, drawn: ImageStoreSnapshot | null, next: ImageStoreSnapshot, sameImage: boolean): 'none' | 'same-image' | 'progress' | 'redraw' {
  if (!drawn || drawn.sliceCount !== next.sliceCount) return 'redraw';
  if (drawn.dataVersion === next.dataVersion && drawn.slice === next.slice) return 'none';
  if (!sameImage) return 'redraw';
  return kind === 'lmode' && drawn.bmodeLoaded !== next.bmodeLoaded ? 'progress' : 'same-image';
}

/**
 * One panel's drawing outside React: it redraws (at most once per animation frame) only when
 * what it shows changed (slice, data, size, view, brightness/contrast). Pointer and wheel input
 * is the tools' (tools/panel-tools.ts): they tell the panel what to change through toolTarget().
 */
export class PanelController implements PanelViewportSource, FrameLinesTarget, BorderLinesTarget {
  readonly kind: PanelKind;
  private readonly store: ImageStore;
  /** The review's one slice writer: the L-mode click and drag and the B-mode wheel move the slice through it. */
  private readonly slices: SliceCursor;
  private readonly display: BrightnessContrastStore;
  private readonly fitMode: FitMode;
  private readonly cutAngle: CutAngleStore | null;
  /** The L-mode panel's image, built from the store's B-mode frames at the cut angle. */
  private readonly lmode: PageLmode;
  private renderer: PanelRenderer | null = null;
  private view: ViewState = DEFAULT_VIEW;
  private viewport: Size = { width: 1, height: 1 };
  private drawn: ImageStoreSnapshot | null = null;
  private drawnImage: Uint8Array | null = null;
  private frameRequest = 0;
  private disposed = false;
  private onDragChange: ((dragging: boolean) => void) | undefined;
  private onFirstImage: (() => void) | undefined;
  private shownFirstImage = false;
  /** The L-mode's slice cursor: a DOM line moved by a CSS transform, so a slice change needs no WebGL redraw. */
  private cursor: HTMLElement | null = null;
  private shownViewport: PanelViewport | null = null;
  private readonly viewportListeners = new Set<() => void>();
  /** The B-mode frame's read-only borders, drawn over the image in the same render (null: none). */
  private frameLines: FrameLinesFor | null = null;
  /** The L-mode's border lines along the cut, drawn over its image in the same render (null: none). */
  private borderLines: BorderLines | null = null;

  constructor(kind: PanelKind, store: ImageStore, slices: SliceCursor, display: BrightnessContrastStore, cutAngle: CutAngleStore | null = null, lmode?: PageLmode) {
    this.kind = kind;
    this.store = store;
    this.slices = slices;
    this.display = display;
    this.cutAngle = cutAngle;
    // Shared with the strip above the plot when the review has one: one L-mode built for both views.
    this.lmode = lmode ?? new PageLmode(store);
    this.fitMode = kind === 'lmode' ? 'stretch' : 'contain';
  }

  // Arrow properties: React's useSyncExternalStore takes them as they are, without binding.
  readonly subscribe = (listener: () => void): (() => void) => {
    this.viewportListeners.add(listener);
    return () => this.viewportListeners.delete(listener);
  };

  readonly getViewport = (): PanelViewport | null => this.shownViewport;

  /** Tells DOM layers when the image moved on screen (zoom, pan, resize, a new image size). */
  private publishViewport(renderer: PanelRenderer): void {
    const next: PanelViewport = { transform: renderer.transform(this.view, this.viewport), imageSize: renderer.imageSize, viewportSize: this.viewport };
    if (sameViewport(this.shownViewport, next)) return;
    this.shownViewport = next;
    for (const listener of this.viewportListeners) listener();
  }

  /** The lines to draw over each slice's image from now on (the borders switched on or off, new borders). */
  setFrameLines(lines: FrameLinesFor | null): void {
    if (lines === this.frameLines) return;
    this.frameLines = lines;
    this.invalidate();
  }

  /** The L-mode border lines to draw over the image from now on (a new analysis, cut angle or gating). */
  setBorderLines(lines: BorderLines | null): void {
    if (lines === this.borderLines) return;
    this.borderLines = lines;
    this.invalidate();
  }

  /** The element the L-mode panel moves along its image to mark the current slice. */
  setCursorElement(element: HTMLElement | null): void {
    this.cursor = element;
    this.placeCursor();
  }

  /** Told once, when the panel first shows real image bytes (the review then starts its other panels). */
  setFirstImageListener(listener: (() => void) | undefined): void {
    this.onFirstImage = listener;
  }

  setDragListener(listener: ((dragging: boolean) => void) | undefined): void {
    this.onDragChange = listener;
  }

  /** Called by @pixi/react once the Application is ready (possibly after an unmount: then ignored). */
  attach(app: Application): void {
    if (this.disposed || this.renderer) return;
    this.renderer = new PanelRenderer(app, this.fitMode);
    this.renderer.resize(this.viewport);
    // User Timing marks: `npm run bench:review` prints where the first frame's time went.
    performance.mark(`ivus:${this.kind}-gpu-ready`);
    this.invalidate();
  }

  /** Starts listening (the panel is mounted). Returns the cleanup, which frees the GPU objects. */
  connect(element: HTMLElement, tools: ActiveToolStore): () => void {
    this.disposed = false;
    const unsubscribeStore = this.store.subscribe(this.onStoreChange);
    const unsubscribeDisplay = this.display.subscribe(this.invalidate);
    // The L-mode samples along the cut; the B-mode draws the cut line in its scene.
    const unsubscribeAngle = this.kind !== 'angio' && this.cutAngle ? this.cutAngle.subscribe(this.invalidate) : () => {};
    const unsubscribeGating = this.kind === 'lmode' ? this.lmode.subscribeGating(this.invalidate) : () => {};
    const resizeObserver = new ResizeObserver(([entry]) => {
      if (!entry) return;
      this.viewport = { width: entry.contentRect.width, height: entry.contentRect.height };
      this.renderer?.resize(this.viewport);
      this.invalidate();
    });
    resizeObserver.observe(element);
    const stopTools = connectPanelTools(element, tools, this.toolTarget());
    return () => {
      stopTools();
      unsubscribeStore();
      unsubscribeDisplay();
      unsubscribeAngle();
      unsubscribeGating();
      resizeObserver.disconnect();
      this.dispose();
    };
  }

  /** What the panel's tools change (tools/panel-tools.ts): its view, the slice through the cursor, brightness and contrast. */
  private toolTarget(): PanelToolTarget {
    return {
      slicesByPointer: this.kind === 'lmode',
      wheelMovesSlice: this.kind === 'bmode',
      transform: this.currentTransform,
      panBy: (dx, dy) => {
        this.view = panBy(this.view, dx, dy);
        this.invalidate();
      },
      zoomAt: (at, factor) => {
        if (!this.renderer) return;
        this.view = zoomAt(this.view, this.renderer.imageSize, this.viewport, this.fitMode, at, factor);
        this.invalidate();
      },
      resetView: () => {
        this.view = DEFAULT_VIEW;
        this.invalidate();
      },
      sliceAt: (image) => this.setSliceAt(image),
      stepSlices: (steps) => this.slices.step(steps),
      display: this.display,
      dragChanged: (dragging) => this.onDragChange?.(dragging),
    };
  }

  private dispose(): void {
    this.disposed = true;
    cancelAnimationFrame(this.frameRequest);
    this.frameRequest = 0;
    this.sameImageWrite.cancel();
    if (this.progressTimer !== null) clearTimeout(this.progressTimer);
    this.progressTimer = null;
    this.renderer?.destroy();
    this.renderer = null;
    this.drawn = null;
    this.lmode.clear();
  }

  /** The transform the panel draws with now, or null before it can draw. */
  private readonly currentTransform = (): ViewTransform | null => (this.renderer ? this.renderer.transform(this.view, this.viewport) : null);

  /** The L-mode's column under the pointer is the slice. */
  private setSliceAt(point: ImagePoint | null): void {
    if (!this.renderer || !point) return;
    const { sliceCount } = this.store.getSnapshot();
    this.slices.setSlice(lmodeXToSlice(point.x, this.renderer.imageSize.width, sliceCount));
  }

  private readonly onStoreChange = (): void => {
    const next = this.store.getSnapshot();
    const drawn = this.drawn;
    const image = this.renderer ? panelImage(this.kind, this.store, next, this.lmode.shown()).data : null;
    const shown = drawn !== null && this.renderer !== null ? shownFrameFor(this.kind, drawn.slice, next.slice, image, this.drawnImage) : 'other';
    // The lines are the slice's: a new slice redraws them even where its image is still black.
    const sameImage = shown !== 'other' && (this.frameLines === null || drawn!.slice === next.slice);
    const change = storeChangeFor(this.kind, drawn, next, sameImage);
    if (change === 'none') return;
    if (shown === 'moved' && image && change !== 'redraw') {
      // The texture keeps its bytes; from now on it is known to hold the chunk's copy of them.
      this.renderer!.adoptShownBytes(image);
      this.drawnImage = image;
    }
    if (change === 'redraw') {
      // The first image is drawn at once: while the review is starting, the next animation frame
      // came 50–160 ms later (measured with `npm run bench:review`). Later changes wait for it.
      if (!this.shownFirstImage && image) {
        cancelAnimationFrame(this.frameRequest);
        this.draw();
      } else this.invalidate();
      return;
    }
    this.drawn = next;
    // In the animation frame that draws the other panels' images, not before it.
    this.sameImageWrite.request();
    if (change === 'progress') this.scheduleProgressRedraw();
  };

  private readonly sameImageWrite = frameWrite(() => {
    this.renderer?.markDrawn(this.drawnImage && this.drawn ? this.drawn.slice : null);
    this.placeCursor();
  });

  private progressTimer: ReturnType<typeof setTimeout> | null = null;

  private scheduleProgressRedraw(): void {
    if (this.progressTimer !== null) return;
    this.progressTimer = setTimeout(() => {
      this.progressTimer = null;
      this.invalidate();
    }, PROGRESS_REDRAW_MS);
  }

  private readonly invalidate = (): void => {
    if (this.frameRequest || !this.renderer) return;
    this.frameRequest = requestAnimationFrame(this.draw);
  };

  private readonly draw = (): void => {
    this.frameRequest = 0;
    const renderer = this.renderer;
    if (!renderer) return;
    const snapshot = this.store.getSnapshot();
    const turnStart = performance.now();
    const turned = this.kind === 'lmode' && this.lmode.refresh(this.cutAngle?.get() ?? DEFAULT_CUT_ANGLE_DEG);
    // While gated (issue 28) the L-mode shown is its gated copy (page-lmode.ts shown).
    const image = panelImage(this.kind, this.store, snapshot, this.lmode.shown());
    renderer.setImage(image);
    renderer.setBrightnessContrast(this.display.get());
    if (this.kind === 'lmode') this.drawLmodeOverlay(renderer);
    else if (this.kind === 'bmode') drawFrameLines(renderer.overlay, this.bmodeLines(snapshot.slice, renderer.imageSize), renderer.transform(this.view, this.viewport));
    renderer.render(this.view, this.viewport);
    // `npm run bench:review` reads it: a new cut angle's recompute, texture upload and draw.
    if (turned) performance.measure('ivus:lmode-recompute', { start: turnStart });
    renderer.markDrawn(image.data ? snapshot.slice : null);
    this.drawn = snapshot;
    this.drawnImage = image.data;
    this.placeCursor();
    this.publishViewport(renderer);
    if (image.data && !this.shownFirstImage) {
      this.shownFirstImage = true;
      performance.mark(`ivus:${this.kind}-first-image`);
      this.onFirstImage?.();
    }
  };

  /** Puts the L-mode cursor at the drawn slice's column, in the panel's current zoom and pan. */
  private placeCursor(): void {
    const cursor = this.cursor;
    const renderer = this.renderer;
    const snapshot = this.drawn;
    if (!cursor) return;
    if (!renderer || !snapshot || snapshot.sliceCount === 0) {
      cursor.style.visibility = 'hidden';
      return;
    }
    const t = renderer.transform(this.view, this.viewport);
    const { width, height } = renderer.imageSize;
    const top = imageToScreen(t, { x: lmodeSliceToX(snapshot.slice, width, snapshot.sliceCount), y: 0 });
    const bottom = imageToScreen(t, { x: 0, y: height });
    cursor.style.visibility = 'visible';
    cursor.style.transform = `translate(${top.x}px, ${top.y}px)`;
    cursor.style.height = `${Math.max(0, bottom.y - top.y)}px`;
    cursor.dataset.slice = String(snapshot.slice);
  }

  /** The B-mode's lines over the slice's image: its borders (when shown) and the L-mode cut line (lmode/cut-line.tsx). */
  private bmodeLines(slice: number, imageSize: Size): readonly FrameLine[] {
    const borders = this.frameLines?.(slice, imageSize) ?? [];
    if (!this.cutAngle) return borders;
    const { from, to } = cutLineInImage(imageSize, this.cutAngle.get());
    return [...borders, { points: [from, to], color: CUT_LINE_COLOR, width: CUT_LINE_WIDTH_PX, shape: 'open', dash: CUT_LINE_DASH_PX }];
  }

  /**
   * Loading progress (a strip under the loaded frames' columns, until every column is in) and the
   * border lines, once the image has one column per frame: they are drawn in its columns.
   */
  private drawLmodeOverlay(renderer: PanelRenderer): void {
    const overlay = renderer.overlay.clear();
    const t = renderer.transform(this.view, this.viewport);
    const { width, height } = renderer.imageSize;
    const lmode = this.lmode.image;
    if (lmode && !lmode.complete) {
      const toScreen = (x: number, y: number) => imageToScreen(t, { x, y });
      const count = lmode.width;
      for (const [start, end] of loadedRuns(count, (i) => this.store.hasFrame('bmode', i))) {
        const a = toScreen((start / count) * width, 0);
        const b = toScreen((end / count) * width, height);
        overlay.rect(a.x, b.y - LOADED_STRIP_PX, b.x - a.x, LOADED_STRIP_PX).fill({ color: LOADED_COLOR, alpha: 1 });
      }
    }
    const lines = this.borderLines;
    if (lines && width === lines.frameCount) strokeBorderLinesOn(overlay, lines, t);
  }
}
