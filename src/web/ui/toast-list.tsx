import { Portal, Stack, Toast, Toaster, type CreateToasterReturn } from '@chakra-ui/react';
import { TOAST_WIDTH } from '../../domain/constants.ts';

/** The toasts on screen (loaded on demand by ToastProvider, with the first toast). */
export default function ToastList({ toaster }: { toaster: CreateToasterReturn }) {
  return (
    <Portal>
      <Toaster toaster={toaster} insetInline={{ mdDown: '4' }}>
        {(toast) => (
          <Toast.Root width={TOAST_WIDTH} maxWidth="calc(100vw - 2rem)" data-testid="toast">
            <Toast.Indicator />
            <Stack gap="1" flex="1" minWidth="0">
              {toast.title ? <Toast.Title>{toast.title}</Toast.Title> : null}
              {toast.description ? (
                // Chakra fades the description to 80 %, below AA contrast on the coloured toasts: full strength.
                <Toast.Description opacity={1}>{toast.description}</Toast.Description>
              ) : null}
            </Stack>
            {toast.closable ? <Toast.CloseTrigger aria-label="Close message" /> : null}
          </Toast.Root>
        )}
      </Toaster>
    </Portal>
  );
}
