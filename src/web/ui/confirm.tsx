import { Suspense, createContext, lazy, use, useCallback, useRef, useState, type ReactNode } from 'react';
import type { ConfirmOptions } from './confirm-options.ts';

export type { ConfirmOptions };

const ConfirmDialog = lazy(() => import('./confirm-dialog.tsx'));

/** Opens a confirmation dialog; true when accepted, false when rejected or dismissed. */
export type Confirm = (options: ConfirmOptions) => Promise<boolean>;

interface PendingConfirmation {
  options: ConfirmOptions;
  resolve: (accepted: boolean) => void;
}

const ConfirmContext = createContext<Confirm | null>(null);

export function ConfirmProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<PendingConfirmation | null>(null);
  const pendingRef = useRef<PendingConfirmation | null>(null);

  const settle = useCallback((accepted: boolean) => {
    const current = pendingRef.current;
    pendingRef.current = null;
    setPending(null);
    current?.resolve(accepted);
  }, []);

  const confirm = useCallback<Confirm>(
    (options) =>
      new Promise<boolean>((resolve) => {
        // A newer question replaces an unanswered one, which counts as rejected.
        pendingRef.current?.resolve(false);
        const next = { options, resolve };
        pendingRef.current = next;
        setPending(next);
      }),
    [],
  );

  const options = pending?.options;
  // The dialog's component (zag's dialog and focus trap) loads with the first question, not with the page (issue 27).
  const dialog = options ? (
    <Suspense fallback={null}>
      <ConfirmDialog options={options} settle={settle} />
    </Suspense>
  ) : null;

  return (
    <ConfirmContext value={confirm}>
      {children}
      {dialog}
    </ConfirmContext>
  );
}

export function useConfirm(): Confirm {
  const confirm = use(ConfirmContext);
  if (!confirm) throw new Error('ConfirmService is not provided');
  return confirm;
}
