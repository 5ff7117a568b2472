/**
 * Correcting the calcium arc of one slice by hand (issue 28), in the calcium score's details: the
 * arc's start and end in degrees (as the detector's: 0 to the right, turning clockwise on screen) and
 * whether it is a calcified nodule; "Set arc", "No calcium here" (a false arc cleared), and "Use the
 * measured arc" (the hand-set arc removed). Each is one undoable change of the record's annotations,
 * saved with them; plain inputs and buttons, so the keyboard does it all (Tab, digits, Enter).
 */
import { Button, Checkbox, HStack, Input, Stack, Text } from '@chakra-ui/react';
import { useState, type FormEvent } from 'react';
import { arcBetween, withCalciumArc, withoutCalciumArc, type CalciumArcCorrection } from '../../../domain/annotations/calcium-arcs.ts';
import type { SliceCalcium } from '../../../domain/contours/api.ts';
import type { AnnotationStore } from '../manifest/annotation-store.ts';

export interface CalciumArcEditorProps {
  slice: number;
  /** The slice's arc as now counted (null: not measurable). */
  current: SliceCalcium | null;
  /** Whether the clinician already set this slice's arc by hand. */
  setByHand: boolean;
  annotations: AnnotationStore;
}

/** Degrees typed in a field, as a number in [0, 360), or null when it is none. */
function parseDegrees(text: string): number | null {
  if (text.trim() === '') return null;
  const value = Number(text);
  if (!Number.isFinite(value) || value < 0 || value > 360) return null;
  return value % 360;
}

export function CalciumArcEditor({ slice, current, setByHand, annotations }: CalciumArcEditorProps) {
  const measured = current !== null && current.arcDeg > 0;
  const [start, setStart] = useState(measured ? String(Math.round(current.startDeg)) : '');
  const [end, setEnd] = useState(measured ? String(Math.round(current.endDeg)) : '');
  const [nodule, setNodule] = useState(current?.nodule ?? false);
  const startDeg = parseDegrees(start);
  const endDeg = parseDegrees(end);
  const valid = startDeg !== null && endDeg !== null;
  // Equal ends: calcium all round (clearing it is its own button).
  const arcDeg = valid ? arcBetween(startDeg, endDeg) || 360 : null;

  const commit = (next: (arcs: CalciumArcCorrection[] | undefined) => CalciumArcCorrection[]) => {
    const manifest = annotations.getSnapshot().history.present;
    annotations.commit({ ...manifest, calcium: next(manifest.calcium) });
  };
  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!valid || arcDeg === null) return;
    commit((arcs) => withCalciumArc(arcs, { slice, startDeg: Math.round(startDeg * 10) / 10, arcDeg, ...(nodule ? { nodule: true } : {}) }));
  };
  return (
    <Stack as="form" gap="1" onSubmit={save} aria-label={`Correct the calcium arc of slice ${slice}`} data-testid="calcium-arc-editor">
      <HStack gap="1.5">
        <label>
          <Text as="span" textStyle="xs">
            Start °
          </Text>
          <Input size="xs" width="64px" inputMode="decimal" value={start} onChange={(e) => setStart(e.target.value)} aria-invalid={start !== '' && startDeg === null} data-testid="calcium-arc-start" />
        </label>
        <label>
          <Text as="span" textStyle="xs">
            End °
          </Text>
          <Input size="xs" width="64px" inputMode="decimal" value={end} onChange={(e) => setEnd(e.target.value)} aria-invalid={end !== '' && endDeg === null} data-testid="calcium-arc-end" />
        </label>
        <Checkbox.Root size="sm" checked={nodule} onCheckedChange={(e) => setNodule(e.checked === true)} data-testid="calcium-arc-nodule">
          <Checkbox.HiddenInput />
          <Checkbox.Control />
          <Checkbox.Label>Nodule</Checkbox.Label>
        </Checkbox.Root>
      </HStack>
      <Text textStyle="xs" color="fg.muted">
        Degrees from 0 (right of the catheter) turning clockwise on screen, 0–360; equal ends: calcium all round.{arcDeg !== null ? ` Arc ${arcDeg}°.` : ''}
      </Text>
      <HStack gap="1" wrap="wrap">
        <Button size="xs" type="submit" disabled={!valid} data-testid="calcium-arc-set">
          Set arc
        </Button>
        <Button size="xs" variant="outline" onClick={() => commit((arcs) => withCalciumArc(arcs, { slice, startDeg: 0, arcDeg: 0 }))} data-testid="calcium-arc-clear">
          No calcium here
        </Button>
        {setByHand ? (
          <Button size="xs" variant="outline" onClick={() => commit((arcs) => withoutCalciumArc(arcs, slice))} data-testid="calcium-arc-measured">
            Use the measured arc
          </Button>
        ) : null}
      </HStack>
    </Stack>
  );
}
