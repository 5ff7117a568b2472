import type { ReactNode } from 'react';
import { Center } from '@chakra-ui/react';
import { Redirect, useLocation, useSearch } from 'wouter';
import { useAuthStatus } from '../auth/auth-context.tsx';
import { DelayedSpinner } from '../ui/delayed-spinner.tsx';

/**
 * Route guard (spec section 2): while the session is being restored nothing is shown; without a
 * session the user goes to /login, which brings them back here after signing in.
 */
export function RequireAuth({ children }: { children: ReactNode }) {
  const status = useAuthStatus();
  const [location] = useLocation();
  const search = useSearch();

  if (status === 'authenticated') return children;
  if (status === 'restoring' || status === 'signingOut') {
    return (
      <Center height="100dvh" role="status" aria-label={status === 'restoring' ? 'Restoring your session' : 'Signing out'}>
        <DelayedSpinner size="lg" color="colorPalette.solid" />
      </Center>
    );
  }
  const requested = search ? `${location}?${search}` : location;
  return <Redirect to={`/login?returnTo=${encodeURIComponent(requested)}`} replace />;
}
