import { Suspense, createContext, lazy, use, useMemo, useState, type ReactNode } from 'react';
import { createToaster } from '@chakra-ui/react';

const ToastList = lazy(() => import('./toast-list.tsx'));

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

  // The toaster keeps the toasts made before its component has loaded and shows them once it has.
  const [anyShown, setAnyShown] = useState(false);

  const service = useMemo<ToastService>(
    () => ({
      show: ({ summary, detail, severity = 'info', life }) => {
        setAnyShown(true);
        return toaster.create({
          title: summary,
          description: detail,
          type: severity,
          duration: life ?? Number.POSITIVE_INFINITY,
          closable: true,
        });
      },
      close: (id) => toaster.dismiss(id),
    }),
    [toaster],
  );

  return (
    <ToastContext value={service}>
      {children}
      {/* The toaster's component (zag's toast machines, ~10 kB gzip) loads with the first toast, not with the page (issue 27). */}
      {anyShown ? (
        <Suspense fallback={null}>
          <ToastList toaster={toaster} />
        </Suspense>
      ) : null}
    </ToastContext>
  );
}

export function useToast(): ToastService {
  const service = use(ToastContext);
  if (!service) throw new Error('ToastService is not provided');
  return service;
}
