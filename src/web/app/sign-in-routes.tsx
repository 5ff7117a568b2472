import { useEffect } from 'react';
import { Button, Stack, Text } from '@chakra-ui/react';
import { useSelector } from '@xstate/react';
import { Redirect, useLocation, useSearchParams } from 'wouter';
import { useAuthActor, useAuthError, useAuthStatus } from '../auth/auth-context.tsx';
import { DEFAULT_LANDING_PATH, safeReturnTo } from '../auth/return-to.ts';
import { DelayedSpinner } from '../ui/delayed-spinner.tsx';
import { FullPageMessage } from '../ui/full-page-message.tsx';

function Waiting({ title, text }: { title: string; text: string }) {
  return (
    <FullPageMessage title={title}>
      <Stack direction="row" align="center" gap="3">
        <DelayedSpinner size="sm" color="colorPalette.solid" />
        <Text color="fg.muted">{text}</Text>
      </Stack>
    </FullPageMessage>
  );
}

/** /login: leaves for the provider's sign-in page at once (spec section 2). */
export function LoginRoute() {
  const actor = useAuthActor();
  const status = useAuthStatus();
  const error = useAuthError();
  const callbackFailed = useSelector(actor, (snapshot) => snapshot.context.callbackFailed);
  const [params] = useSearchParams();
  const returnTo = safeReturnTo(params.get('returnTo'));
  // After a failed callback the user starts again by hand, so a persistent failure cannot loop through the provider.
  const automatic = status === 'unauthenticated' && !error && !callbackFailed;

  useEffect(() => {
    if (automatic) actor.send({ type: 'auth.login', returnTo });
  }, [actor, automatic, returnTo]);

  if (status === 'authenticated') return <Redirect to={returnTo ?? DEFAULT_LANDING_PATH} replace />;
  if (status === 'unauthenticated' && !automatic) {
    return (
      <FullPageMessage
        title="Sign in"
        role={error ? 'alert' : 'status'}
        actions={<Button onClick={() => actor.send({ type: 'auth.login', returnTo })}>Sign in</Button>}
      >
        {error ?? 'Sign in to review patient records.'}
      </FullPageMessage>
    );
  }
  return <Waiting title="Signing in" text="Opening the sign-in page…" />;
}

/** /callback: completes the sign-in, then opens the page the user asked for (or the patients list). */
export function CallbackRoute() {
  const actor = useAuthActor();
  const status = useAuthStatus();
  const returnTo = useSelector(actor, (snapshot) => snapshot.context.returnTo);
  const failed = useSelector(actor, (snapshot) => snapshot.context.callbackFailed);

  useEffect(() => {
    actor.send({ type: 'auth.callback' });
  }, [actor]);

  if (status === 'authenticated') return <Redirect to={returnTo ?? DEFAULT_LANDING_PATH} replace />;
  if (failed) return <Redirect to="/login" replace />;
  return <Waiting title="Signing in" text="Completing the sign-in…" />;
}

/** /logout: removes the user and everything stored, then the provider's logout (spec section 2). */
export function LogoutRoute() {
  const actor = useAuthActor();
  const status = useAuthStatus();
  const error = useAuthError();
  const [, navigate] = useLocation();

  useEffect(() => {
    actor.send({ type: 'auth.logout' });
  }, [actor]);

  if (status === 'unauthenticated' && error) {
    return (
      <FullPageMessage
        title="Sign-out did not complete"
        role="alert"
        actions={<Button onClick={() => navigate('/login', { replace: true })}>Sign in again</Button>}
      >
        {error}
      </FullPageMessage>
    );
  }
  return <Waiting title="Signing out" text="Signing you out…" />;
}
