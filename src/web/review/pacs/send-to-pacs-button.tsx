import { useId, useState } from 'react';
import { Button, Portal, Tooltip, VisuallyHidden } from '@chakra-ui/react';
import type { AnnotationStore } from '../manifest/annotation-store.ts';
import { SendToPacsDialog } from './send-to-pacs-dialog.tsx';

export const NO_STUDY_REASON = 'Only records imported from DICOM can be sent: a demo record has no study in a PACS';

export interface SendToPacsButtonProps {
  recordId: string;
  /** The record's DICOM study; null or absent for a demo record, which has none to send to. */
  studyInstanceUid: string | null | undefined;
  annotations: AnnotationStore;
  /** Issue 28: whether the review's gating is on when the dialog opens (the reports then add the gated figures). */
  gating?: () => boolean;
  /**
   * Why nothing may be sent yet (manifest/saved-corrections.ts): the saved corrections are on their
   * way or could not be loaded, so the dialog could not say which annotations the reports carry.
   */
  heldReason?: string | null | undefined;
}

/**
 * "Send to PACS" beside the report exports. Without a study, or while the saved corrections are not
 * in, it stays focusable (aria-disabled) so that keyboard users reach its tooltip and learn why it
 * does nothing.
 */
export function SendToPacsButton({ recordId, studyInstanceUid, annotations, gating, heldReason = null }: SendToPacsButtonProps) {
  const [open, setOpen] = useState(false);
  const reasonId = useId();
  const reason = !studyInstanceUid ? NO_STUDY_REASON : heldReason;
  const disabled = reason !== null;
  return (
    <>
      <Tooltip.Root openDelay={300} closeDelay={0} disabled={!disabled} positioning={{ placement: 'top' }}>
        <Tooltip.Trigger asChild>
          <Button
            size="2xs"
            variant="outline"
            aria-disabled={disabled || undefined}
            aria-describedby={disabled ? reasonId : undefined}
            onClick={() => {
              if (!disabled) setOpen(true);
            }}
          >
            Send to PACS
          </Button>
        </Tooltip.Trigger>
        {disabled ? <VisuallyHidden id={reasonId}>{reason}</VisuallyHidden> : null}
        <Portal>
          <Tooltip.Positioner>
            <Tooltip.Content>{reason}</Tooltip.Content>
          </Tooltip.Positioner>
        </Portal>
      </Tooltip.Root>
      {open ? <SendToPacsDialog recordId={recordId} annotations={annotations} gating={gating?.() ?? false} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
