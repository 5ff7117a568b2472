import { useEffect, useRef, useState } from 'react';
import { Button, Code, Link, Text } from '@chakra-ui/react';
import { tenantFromHost } from '../../domain/tenant.ts';
import { ApiProvider } from '../api/api-context.tsx';
import { AuthProvider } from '../auth/auth-context.tsx';
import { fetchAuthInfo } from '../auth/auth-info.ts';
import { createSilentRenewUserManager } from '../auth/user-manager.ts';
import { FullPageMessage } from '../ui/full-page-message.tsx';
import { LoadingState } from '../ui/states.tsx';
import { AppRouter } from './app-router.tsx';
import { AppErrorBoundary } from './error-boundary.tsx';
import { startSession } from './start-session.ts';
import { UiProviders } from './ui-providers.tsx';

/** The address of the demo workspace on this server, for visitors who opened it without a tenant. */
export function demoAddress(location: Pick<Location, 'protocol' | 'port'>): string {
  return `${location.protocol}//demo.localhost${location.port ? `:${location.port}` : ''}`;
}

function TenantMissing() {
  const address = demoAddress(window.location);
  return (
    <FullPageMessage title="Open your workspace address" role="alert">
      <Text>
        IVUS Review is reached through a workspace address whose first part names the workspace, such as{' '}
        <Code>demo.localhost</Code>. <Code>{window.location.host}</Code> names none.
      </Text>
      <Text>
        Open <Link href={address} colorPalette="teal" textDecoration="underline">{address}</Link> instead.
      </Text>
    </FullPageMessage>
  );
}

type AuthInfo = Awaited<ReturnType<typeof fetchAuthInfo>>;
type LoadState<T> = { status: 'loading' } | { status: 'failed'; message: string } | { status: 'ready'; value: T };

/** Loads the tenant's sign-in configuration and hands it to `onLoaded` once per successful load. */
function useAuthInfo<T>(tenant: string, onLoaded: (info: AuthInfo) => T) {
  const [attempt, setAttempt] = useState(0);
  const [result, setResult] = useState<{ key: string; state: LoadState<T> }>({ key: '', state: { status: 'loading' } });
  const key = JSON.stringify([tenant, attempt]);
  const onLoadedRef = useRef(onLoaded);
  useEffect(() => {
    onLoadedRef.current = onLoaded;
  });

  useEffect(() => {
    let cancelled = false;
    fetchAuthInfo(tenant)
      .then((info) => {
        if (!cancelled) setResult({ key, state: { status: 'ready', value: onLoadedRef.current(info) } });
      })
      .catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error);
        if (!cancelled) setResult({ key, state: { status: 'failed', message } });
      });
    return () => {
      cancelled = true;
    };
  }, [tenant, key]);

  const state: LoadState<T> = result.key === key ? result.state : { status: 'loading' };
  return { state, retry: () => setAttempt((n) => n + 1) };
}

function AuthInfoFailure({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <FullPageMessage title="Sign-in is not available" role="alert" actions={<Button onClick={onRetry}>Retry</Button>}>
      {`The sign-in configuration of this workspace could not be loaded. ${message}`}
    </FullPageMessage>
  );
}

function SessionGate({ tenant }: { tenant: string }) {
  const { state, retry } = useAuthInfo(tenant, (info) => startSession(tenant, info));
  if (state.status === 'loading') return <LoadingState label="Starting IVUS Review…" />;
  if (state.status === 'failed') return <AuthInfoFailure message={state.message} onRetry={retry} />;
  const session = state.value;
  return (
    <AuthProvider actor={session.auth}>
      <ApiProvider client={session.api}>
        <AppRouter />
      </ApiProvider>
    </AuthProvider>
  );
}

/** Runs inside the hidden frame of a silent renewal: hands the provider's answer to the app in the parent window. */
function SilentRenew({ tenant }: { tenant: string }) {
  const { state } = useAuthInfo(tenant, (info) => {
    createSilentRenewUserManager(info)
      .signinSilentCallback()
      .catch((error: unknown) => console.error('Silent renewal callback failed', error));
    return true;
  });
  return state.status === 'failed' ? <Text role="alert">{state.message}</Text> : null;
}

export function App() {
  const tenant = tenantFromHost(window.location.host);
  let content;
  if (!tenant) content = <TenantMissing />;
  else if (window.location.pathname === '/silent-renew') content = <SilentRenew tenant={tenant} />;
  else content = <SessionGate tenant={tenant} />;
  return (
    <UiProviders>
      <AppErrorBoundary>{content}</AppErrorBoundary>
    </UiProviders>
  );
}
