import { OTHER_ULTRASOUND_LABEL, type ImagingKind } from '../../../domain/records.ts';
import { TOOLS, type ToolId } from '../tools/tools.ts';

/**
 * What the review offers for a record, by what the record is (issue 26: only IVUS is analysed as
 * IVUS). An IVUS pullback gets everything; a loop of other ultrasound (an obstetric or echo loop
 * imported on the uploader's word) is viewed and measured by hand only: its borders, MLA,
 * references, report and Send to PACS would be IVUS figures made up from a fetal scan.
 */
export interface ReviewScope {
  /** Borders are detected and shown, the pullback analysis (figures, plot, PDF, CSV, PACS) offered. */
  readonly analysed: boolean;
  /** Said plainly in the header when the record is not an IVUS pullback; null otherwise. */
  readonly label: string | null;
  /** The tools of the left toolbar, in toolbar order. */
  readonly tools: readonly ToolId[];
}

const IVUS: ReviewScope = Object.freeze({ analysed: true, label: null, tools: Object.freeze(TOOLS.map((tool) => tool.id)) });

const VIEW_ONLY: ReviewScope = Object.freeze({
  analysed: false,
  label: OTHER_ULTRASOUND_LABEL,
  // Rulers, areas, angles, notes and brightness measure what is on screen; the contour tool edits IVUS borders.
  tools: Object.freeze(TOOLS.map((tool) => tool.id).filter((id) => id !== 'contour')),
});

/** The scope of a record; a record not known yet (or without a kind, as before issue 26) is IVUS. */
export function reviewScope(record: { readonly imagingKind?: ImagingKind | undefined } | null): ReviewScope {
  return record?.imagingKind === 'other-ultrasound' ? VIEW_ONLY : IVUS;
}
