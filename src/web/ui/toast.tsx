import { createContext, use, useMemo, useState, type ReactNode } from 'react';
import { Portal, Stack, Toast, Toaster, createToaster } from '@chakra-ui/react';
import { TOAST_WIDTH } from '../../domain/constants.ts';

export type ToastSeverity = 'success' | 'info' | 'warning' | 'error';

export interface ToastMessage {
  summary: string;
  detail?: string;
  severity?: ToastSeverity;
  /** Milliseconds before the toast closes by itself; without it the toast stays until closed. */
  life?: number;
}

export interface ToastService {
  /** Shows a toast and answers its id. */
  show: (message: ToastMessage) => string;
  close: (id: string) => void;
}

const ToastContext = createContext<ToastService | null>(null);

export function ToastProvider({ children }: { children: ReactNode }) {
  // One toaster per provider keeps separate app instances (and tests) from sharing toasts.
  const [toaster] = useState(() => createToaster({ placement: 'top-end', pauseOnPageIdle: true, max: 5 }));

  const service = useMemo<ToastService>(
    () => ({
      show: ({ summary, detail, severity = 'info', life }) =>
        toaster.create({
          title: summary,
          description: detail,
          type: severity,
          duration: life ?? Number.POSITIVE_INFINITY,
          closable: true,
        }),
      close: (id) => toaster.dismiss(id),
    }),
    [toaster],
  );

  return (
    <ToastContext value={service}>
      {children}
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
    </ToastContext>
  );
}

export function useToast(): ToastService {
  const service = use(ToastContext);
  if (!service) throw new Error('ToastService is not provided');
  return service;
}
