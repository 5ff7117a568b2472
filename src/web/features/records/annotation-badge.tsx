import { Badge } from '@chakra-ui/react';
import type { AnnotationState } from '../../../domain/records.ts';
import { formatDate } from '../../../domain/reports/format-date.ts';

/** Text of the record's annotation status: none, new, or saved with who and when. */
export function annotationStatusText(annotation: AnnotationState | null | undefined): string {
  if (!annotation) return 'Not annotated';
  if (annotation.status === 'new') return 'New annotations';
  const who = annotation.savedBy ? ` by ${annotation.savedBy}` : '';
  const when = annotation.savedAt ? ` on ${formatDate(annotation.savedAt)}` : '';
  return `Saved${who}${when}`;
}

export function AnnotationBadge({ annotation }: { annotation: AnnotationState | null | undefined }) {
  const palette = !annotation ? 'gray' : annotation.status === 'new' ? 'blue' : 'green';
  return (
    <Badge colorPalette={palette} variant="subtle" data-testid="annotation-status" whiteSpace="normal">
      {annotationStatusText(annotation)}
    </Badge>
  );
}
