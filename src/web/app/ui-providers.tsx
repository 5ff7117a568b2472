import type { ReactNode } from 'react';
import { ChakraProvider, LocaleProvider } from '@chakra-ui/react';
import { LOCALE } from '../../domain/constants.ts';
import { ConfirmProvider } from '../ui/confirm.tsx';
import { system } from '../ui/system.ts';
import { ThemeProvider } from '../ui/theme.tsx';
import { ToastProvider } from '../ui/toast.tsx';

/** Everything the screens need that does not depend on the session: design system, theme, locale, messages. */
export function UiProviders({ children }: { children: ReactNode }) {
  return (
    <ChakraProvider value={system}>
      <LocaleProvider locale={LOCALE}>
        <ThemeProvider>
          <ToastProvider>
            <ConfirmProvider>{children}</ConfirmProvider>
          </ToastProvider>
        </ThemeProvider>
      </LocaleProvider>
    </ChakraProvider>
  );
}
