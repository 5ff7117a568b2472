/**
 * The stent's references moved by hand (issue 28), as the annotation manifest keeps them: the
 * 1-based slice each moved reference was put on (absent: the analysis's own reference holds). Kept
 * with the other hand work so that a reload, a draft and Save do not lose it, and so that the PACS
 * report reads the same references as the review. An optional field of its own (`stentReferences`),
 * so that every manifest saved before it stays valid.
 */
import { z } from 'zod';
import { strict } from './point.ts';

const referenceSlice = (side: string) =>
  z
    .number({ error: `${side} must be a slice number` })
    .int({ error: `${side} must be a whole number` })
    .min(1, { error: `${side} must be 1 or more (slices are 1-based)` });

export const StentReferenceSlicesSchema = strict({
  distal: referenceSlice('distal').optional(),
  proximal: referenceSlice('proximal').optional(),
});
export type StentReferenceSlices = z.infer<typeof StentReferenceSlicesSchema>;

type Side = keyof StentReferenceSlices;

interface WithStentReferences {
  readonly stentReferences?: StentReferenceSlices | undefined;
}

/** The manifest with the `side` reference on `slice` (1-based), or back to the analysis's own with null. */
export function setStentReferenceSlice<M extends WithStentReferences>(manifest: M, side: Side, slice: number | null): M {
  const current = manifest.stentReferences ?? {};
  if ((current[side] ?? null) === slice) return manifest;
  const { [side]: _dropped, ...others } = current;
  const next: StentReferenceSlices = slice === null ? others : { ...others, [side]: slice };
  if (next.distal === undefined && next.proximal === undefined) {
    const { stentReferences: _none, ...rest } = manifest;
    return rest as M;
  }
  return { ...manifest, stentReferences: next };
}

/** The slices of `references` beyond a record of `sliceCount` slices, as readable problems. */
export function stentReferenceProblems(references: StentReferenceSlices | undefined, sliceCount: number): string[] {
  const problems: string[] = [];
  for (const side of ['distal', 'proximal'] as const) {
    const slice = references?.[side];
    if (slice !== undefined && slice > sliceCount) problems.push(`stentReferences.${side}: slice ${slice} is beyond the record's ${sliceCount} slices`);
  }
  return problems;
}
