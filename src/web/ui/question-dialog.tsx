import type { ReactNode, RefObject } from 'react';
import { Dialog, Portal } from '@chakra-ui/react';

export interface QuestionDialogProps {
  title: ReactNode;
  /** The question's explanation; more content may follow as children. */
  description: ReactNode;
  children?: ReactNode;
  /** The answer buttons. */
  footer: ReactNode;
  /** The safe answer's button: it has the focus, so Enter never does the irreversible thing. */
  safeButton: RefObject<HTMLButtonElement | null>;
  /** Escape or a click outside: the safe answer. */
  onDismiss: () => void;
  size?: 'sm' | 'md' | 'lg';
  testId?: string;
}

/**
 * A question the user must answer before going on (an alert dialog): the wrong-patient import, a
 * loop that is not IVUS, leaving with unsaved work. One shape for all, with the safe answer focused.
 */
export function QuestionDialog({ title, description, children, footer, safeButton, onDismiss, size, testId }: QuestionDialogProps) {
  return (
    <Dialog.Root
      open
      role="alertdialog"
      size={size}
      initialFocusEl={() => safeButton.current}
      onOpenChange={(details) => {
        if (!details.open) onDismiss();
      }}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content data-testid={testId}>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Dialog.Description>{description}</Dialog.Description>
              {children}
            </Dialog.Body>
            <Dialog.Footer>{footer}</Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
