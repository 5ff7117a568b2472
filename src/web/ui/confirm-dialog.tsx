import { useRef } from 'react';
import { Button, Dialog, Portal } from '@chakra-ui/react';
import type { ConfirmOptions } from './confirm-options.ts';

interface ConfirmDialogProps {
  options: ConfirmOptions;
  settle: (accepted: boolean) => void;
}

/** The question ConfirmProvider asks (loaded on demand, with the first question). */
export default function ConfirmDialog({ options, settle }: ConfirmDialogProps) {
  const acceptRef = useRef<HTMLButtonElement>(null);
  return (
    <Dialog.Root
      open
      role="alertdialog"
      modal={options.modal ?? true}
      onOpenChange={(details) => {
        if (!details.open) settle(false);
      }}
      initialFocusEl={() => acceptRef.current}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{options.title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>{options.message}</Dialog.Description>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={() => settle(false)}>
                {options.rejectLabel ?? 'Cancel'}
              </Button>
              <Button
                ref={acceptRef}
                colorPalette={options.acceptPalette ?? 'teal'}
                onClick={() => settle(true)}
              >
                {options.acceptLabel ?? 'OK'}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
