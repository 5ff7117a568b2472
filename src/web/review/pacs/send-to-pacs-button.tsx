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
}

/**
 * "Send to PACS" beside the report exports. Without a study it stays focusable (aria-disabled) so
 * that keyboard users reach its tooltip and learn why it does nothing.
 */
export function SendToPacsButton({ recordId, studyInstanceUid, annotations, gating }: SendToPacsButtonProps) {
  const [open, setOpen] = useState(false);
  const reasonId = useId();
  const disabled = !studyInstanceUid;
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
        {disabled ? <VisuallyHidden id={reasonId}>{NO_STUDY_REASON}</VisuallyHidden> : null}
        <Portal>
          <Tooltip.Positioner>
            <Tooltip.Content>{NO_STUDY_REASON}</Tooltip.Content>
          </Tooltip.Positioner>
        </Portal>
      </Tooltip.Root>
      {open ? <SendToPacsDialog recordId={recordId} annotations={annotations} gating={gating?.() ?? false} onClose={() => setOpen(false)} /> : null}
    </>
  );
}
