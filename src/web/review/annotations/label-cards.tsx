import { Box, HStack, IconButton, Input, Menu, Portal, Text } from '@chakra-ui/react';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode, type RefObject } from 'react';
import { TEXT_DEBOUNCE_MS } from '../../../domain/constants.ts';
import type { TypedAnnotation } from '../../../domain/annotations/manifest.ts';
import { measureAnnotation } from '../../../domain/annotations/kinds/index.ts';
import { smoothClosedCurve } from '../../../domain/annotations/curves.ts';
import type { SliceMeasurement } from '../../../domain/contours/corrected-analysis.ts';
import { useBordersShown } from '../contours/borders-visibility.ts';
import { CONTOUR_HANDLE_RADIUS_PX, CONTOUR_HANDLE_STROKE_PX } from '../contours/contour-layer.tsx';
import { useFrameBoxes } from '../contours/frame-boxes.ts';
import type { Rect } from '../contours/readout-placement.ts';
import { imageToScreen, type ViewTransform } from '../view/view-transform.ts';
import { cardAnchor, handleCircles } from './annotation-shapes.tsx';
import { placeLabels, type HandleCircle, type LabelObstacles, type ScreenSize } from './label-placement.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';

/** A card's size before it is measured (its first render): about a ruler's card. */
const UNMEASURED_CARD: ScreenSize = { width: 90, height: 22 };

interface MeasuredLayout {
  panel: ScreenSize;
  cards: Readonly<Record<string, ScreenSize>>;
}

const sameSize = (a: ScreenSize | undefined, b: ScreenSize) => a !== undefined && a.width === b.width && a.height === b.height;

/**
 * The panel's size and each card's, read after a render with other annotations (a card's width
 * follows its measurement; a note's input has a fixed width) or another zoom or panel size (the
 * transform changes with both). A state update only when a size changed.
 */
function useMeasuredLayout(annotations: readonly TypedAnnotation[], transform: ViewTransform): [RefObject<HTMLDivElement | null>, MeasuredLayout] {
  const containerRef = useRef<HTMLDivElement>(null);
  const [layout, setLayout] = useState<MeasuredLayout>({ panel: { width: 0, height: 0 }, cards: {} });
  useLayoutEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const panel = { width: container.clientWidth, height: container.clientHeight };
    const cards: Record<string, ScreenSize> = {};
    for (const card of container.querySelectorAll<HTMLElement>('[data-card-for]')) cards[card.dataset.cardFor!] = { width: card.offsetWidth, height: card.offsetHeight };
    setLayout((previous) => {
      const ids = Object.keys(cards);
      const unchanged = sameSize(previous.panel, panel) && ids.length === Object.keys(previous.cards).length && ids.every((id) => sameSize(previous.cards[id], cards[id]!));
      return unchanged ? previous : { panel, cards };
    });
  }, [annotations, transform]);
  return [containerRef, layout];
}

/** What is drawn on the frame besides the annotations: the borders and the contour tool's control points, as they show now. */
export interface FrameDrawing {
  /** The slice's stored borders (a drag in progress does not move the cards), or null. */
  borders: SliceMeasurement | null;
  /** The borders are drawn (their switch is on). */
  bordersShown: boolean;
  /** The contour tool draws the borders' control points. */
  controlPoints: boolean;
}

/**
 * What the cards keep clear of (issue 26, item 7): the handles of the slice's annotations, the
 * borders as drawn (the smooth curve through their control points, in screen pixels) with their
 * control points in the contour tool, and the boxes on the frame (readout, contour card, scale bar,
 * cut handle).
 */
export function cardObstacles(annotations: readonly TypedAnnotation[], transform: ViewTransform, frame: FrameDrawing, boxes: readonly Rect[]): LabelObstacles {
  const handles: HandleCircle[] = handleCircles(annotations, transform);
  const lines: { x: number; y: number }[][] = [];
  const { borders } = frame;
  if (borders && frame.bordersShown) {
    for (const controlPoints of [borders.controlPoints, borders.vessel?.controlPoints ?? []]) {
      const screen = controlPoints.map((p) => imageToScreen(transform, p));
      if (screen.length >= 3) lines.push(smoothClosedCurve(screen));
      if (frame.controlPoints) handles.push(...screen.map((p) => ({ ...p, radius: CONTOUR_HANDLE_RADIUS_PX + CONTOUR_HANDLE_STROKE_PX / 2 })));
    }
  }
  return { handles, lines, boxes };
}

const KIND_NAMES = { ruler: 'Ruler', area: 'Area', angle: 'Angle', text: 'Note' } as const;

export interface LabelCardsProps {
  annotations: readonly TypedAnnotation[];
  store: AnnotationStore;
  transform: ViewTransform;
  pixelSpacingMm: number;
  selectedId: string | null;
  focusTextId: string | null;
  /** A press on a note's grip: the tool statechart moves the note once the pointer passes the drag threshold. */
  onGripDown: (annotation: TypedAnnotation, event: ReactPointerEvent) => void;
  /** The slice's borders (IVUS only), which the cards keep clear of where they are drawn. */
  borders?: SliceMeasurement | null | undefined;
  /** The contour tool is on: the borders' control points are drawn. */
  contourTool?: boolean | undefined;
}

/** The floating cards of spec section 2 for the annotations of the shown slice. */
export function LabelCards({ annotations, store, transform, pixelSpacingMm, selectedId, focusTextId, onGripDown, borders = null, contourTool = false }: LabelCardsProps) {
  const [containerRef, layout] = useMeasuredLayout(annotations, transform);
  const bordersShown = useBordersShown();
  const frameBoxes = useFrameBoxes();
  // Each card beside what it describes, off every handle, border and box on the frame and inside the panel (label-placement.ts).
  const placements = useMemo(() => {
    const labels = annotations.map((annotation) => ({ id: annotation.id, anchor: cardAnchor(annotation, transform), size: layout.cards[annotation.id] ?? UNMEASURED_CARD }));
    const obstacles = cardObstacles(annotations, transform, { borders, bordersShown, controlPoints: contourTool }, Object.values(frameBoxes));
    return placeLabels(labels, obstacles, layout.panel);
  }, [annotations, transform, layout, borders, bordersShown, contourTool, frameBoxes]);
  return (
    // Cards are dragged and clicked, never read as a text selection (the notes' inputs still are).
    <Box ref={containerRef} position="absolute" inset="0" pointerEvents="none" userSelect="none" data-testid="label-cards">
      {annotations.map((annotation) => {
        const at = placements.get(annotation.id)!;
        return (
          <Box
            key={annotation.id}
            data-card-for={annotation.id}
            position="absolute"
            left="0"
            top="0"
            transform={`translate(${at.x}px, ${at.y}px)`}
            pointerEvents="auto"
            userSelect="none"
            // The card's own clicks and drags are not the panel's.
            onPointerDown={(event) => event.stopPropagation()}
          >
            {annotation.type === 'text' ? (
              <TextCard annotation={annotation} store={store} onGripDown={onGripDown} selected={annotation.id === selectedId} focus={annotation.id === focusTextId} />
            ) : (
              <MeasurementCard annotation={annotation} store={store} pixelSpacingMm={pixelSpacingMm} selected={annotation.id === selectedId} />
            )}
          </Box>
        );
      })}
    </Box>
  );
}

function CardFrame({ annotation, selected, children, onPointerDown }: { annotation: TypedAnnotation; selected: boolean; children: ReactNode; onPointerDown?: (event: ReactPointerEvent) => void }) {
  return (
    <HStack
      data-testid="label-card"
      data-annotation-id={annotation.id}
      data-annotation-type={annotation.type}
      gap="1"
      px="1.5"
      py="0.5"
      rounded="l1"
      bg="rgba(0, 0, 0, 0.72)"
      color="white"
      textStyle="xs"
      borderWidth="1px"
      borderColor={selected ? annotation.color : 'transparent'}
      borderLeftWidth="3px"
      borderLeftColor={annotation.color}
      whiteSpace="nowrap"
      onPointerDown={onPointerDown}
    >
      {children}
    </HStack>
  );
}

function CardMenu({ annotation, store, withLabelToggle }: { annotation: TypedAnnotation; store: AnnotationStore; withLabelToggle: boolean }) {
  const name = `${KIND_NAMES[annotation.type]} ${annotation.label}`;
  return (
    <Menu.Root
      positioning={{ placement: 'bottom-start' }}
      onSelect={({ value }) => {
        if (value === 'delete') store.remove(annotation.id);
        else if (value === 'toggle-label') store.replace({ ...annotation, hideLabel: !annotation.hideLabel });
      }}
    >
      <Menu.Trigger asChild>
        <IconButton aria-label={`Menu of ${name}`} size="2xs" variant="ghost" color="white" minWidth="4" height="4" _hover={{ bg: 'whiteAlpha.300' }}>
          ⋮
        </IconButton>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="10rem">
            {withLabelToggle ? <Menu.Item value="toggle-label">{annotation.hideLabel ? 'Show label' : 'Hide label'}</Menu.Item> : null}
            <Menu.Item value="delete" color="fg.error">
              Delete
            </Menu.Item>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}

function MeasurementCard({ annotation, store, pixelSpacingMm, selected }: { annotation: TypedAnnotation; store: AnnotationStore; pixelSpacingMm: number; selected: boolean }) {
  const measurement = measureAnnotation(annotation, pixelSpacingMm);
  return (
    <CardFrame annotation={annotation} selected={selected} onPointerDown={() => store.select(annotation.id)}>
      {annotation.hideLabel ? null : (
        <Text as="span" fontWeight="bold" color={annotation.color} data-testid="card-label">
          {annotation.label}
        </Text>
      )}
      <Text as="span" data-testid="card-measurement" fontVariantNumeric="tabular-nums">
        {measurement?.value}
      </Text>
      <Text as="span" data-testid="card-unit" opacity={0.8}>
        {measurement?.unit}
      </Text>
      <CardMenu annotation={annotation} store={store} withLabelToggle />
    </CardFrame>
  );
}

interface TextCardProps {
  annotation: Extract<TypedAnnotation, { type: 'text' }>;
  store: AnnotationStore;
  onGripDown: LabelCardsProps['onGripDown'];
  selected: boolean;
  focus: boolean;
}

/** A note: typed edits reach the store 300 ms after the last key; dragging the card's grip moves the note. */
function TextCard({ annotation, store, onGripDown, selected, focus }: TextCardProps) {
  const [text, setText] = useState(annotation.text);
  const inputRef = useRef<HTMLInputElement>(null);
  const latest = useRef(annotation);
  useEffect(() => {
    latest.current = annotation;
  });
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);
  // What was typed last, kept here rather than read from the input: when the card closes (a wheel to
  // the next slice), React clears the input's ref before the cleanup below runs, and the note was lost.
  const typed = useRef(annotation.text);

  // Undo or a loaded version changes the note under the card.
  useEffect(() => {
    if (!pending.current) setText(annotation.text);
  }, [annotation.text]);

  useEffect(() => {
    if (!focus) return;
    inputRef.current?.focus();
    store.textFocused();
  }, [focus, store]);

  const flush = () => {
    if (!pending.current) return;
    clearTimeout(pending.current);
    pending.current = null;
    const value = typed.current;
    if (value !== latest.current.text) store.replace({ ...latest.current, text: value });
  };
  useEffect(() => flush, []); // eslint-disable-line react-hooks/exhaustive-deps -- a last edit is kept when the card goes

  const onChange = (value: string) => {
    typed.current = value;
    setText(value);
    if (pending.current) clearTimeout(pending.current);
    pending.current = setTimeout(flush, TEXT_DEBOUNCE_MS);
  };

  return (
    <CardFrame annotation={annotation} selected={selected}>
      <Box
        as="span"
        role="button"
        aria-label={`Move note ${annotation.label}`}
        data-testid="card-grip"
        cursor="grab"
        px="0.5"
        color={annotation.color}
        fontWeight="bold"
        onPointerDown={(event) => onGripDown(annotation, event)}
      >
        {annotation.hideLabel ? '⠿' : annotation.label}
      </Box>
      <Input
        ref={inputRef}
        size="2xs"
        width="12rem"
        variant="flushed"
        color="white"
        placeholder="Type your note"
        aria-label={`Note ${annotation.label}`}
        value={text}
        // The note's own text stays selectable for editing, inside a card that is not.
        userSelect="text"
        onChange={(event) => onChange(event.target.value)}
        onBlur={flush}
        onFocus={() => store.select(annotation.id)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' || event.key === 'Escape') {
            flush();
            (event.target as HTMLInputElement).blur();
          }
        }}
      />
      <CardMenu annotation={annotation} store={store} withLabelToggle={false} />
    </CardFrame>
  );
}
