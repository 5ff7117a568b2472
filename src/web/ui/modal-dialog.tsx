import type { ReactNode } from 'react';
import { Dialog, Portal } from '@chakra-ui/react';

export interface ModalDialogProps {
  size?: Dialog.RootProps['size'];
  /** While true (saving, sending), Escape and a click outside leave the dialog open. */
  busy?: boolean;
  onClose: () => void;
  /** Header, body and footer (or a form holding them). */
  children: ReactNode;
}

/** A centred modal dialog, open while mounted. */
export function ModalDialog({ size = 'md', busy = false, onClose, children }: ModalDialogProps) {
  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && !busy && onClose()} size={size} placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>{children}</Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
