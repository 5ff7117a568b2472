import type { ReactNode } from 'react';
import { Redirect, Route, Switch } from 'wouter';
import { useAuthUser } from '../auth/auth-context.tsx';
import { PatientsPage } from '../features/patients/patients-page.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { AppLayout } from './app-layout.tsx';
import { LazyRecordsPage, LazyUploadPage, LazyUsersPage } from './lazy-pages.tsx';
import { RequireAuth } from './require-auth.tsx';
import { ReviewScreen } from './review-screen.tsx';
import type { Screen } from './screens.ts';
import { CallbackRoute, LoginRoute, LogoutRoute } from './sign-in-routes.tsx';

function Guarded({ screen, fullBleed, children }: { screen: Screen; fullBleed?: boolean; children: ReactNode }) {
  return (
    <RequireAuth>
      <AppLayout screen={screen} fullBleed={fullBleed}>
        {children}
      </AppLayout>
    </RequireAuth>
  );
}

function UsersRoute() {
  const user = useAuthUser();
  return <LazyUsersPage isAdmin={user?.isAdmin ?? false} currentEmail={user?.email ?? null} />;
}

/** The routes of spec section 2 (/silent-renew is answered before the app starts, see app.tsx). */
export function AppRouter() {
  return (
    <Switch>
      <Route path="/">
        <Redirect to="/login" replace />
      </Route>
      <Route path="/login">
        <LoginRoute />
      </Route>
      <Route path="/callback">
        <CallbackRoute />
      </Route>
      <Route path="/logout">
        <LogoutRoute />
      </Route>
      <Route path="/patients">
        <Guarded screen="patients">
          <PatientsPage />
        </Guarded>
      </Route>
      <Route path="/patients/:patientId/records">
        {({ patientId }) => (
          <Guarded screen="records">
            <LazyRecordsPage key={patientId} patientId={patientId} />
          </Guarded>
        )}
      </Route>
      <Route path="/patients/:patientId/records/:recordId/review">
        {({ patientId, recordId }) => (
          <RequireAuth>
            {/* Inside RequireAuth (the review loads with the user's token); one session per record. */}
            <ReviewScreen key={`${patientId}/${recordId}`} patientId={patientId} recordId={recordId} />
          </RequireAuth>
        )}
      </Route>
      <Route path="/users">
        <Guarded screen="users">
          <UsersRoute />
        </Guarded>
      </Route>
      <Route path="/upload">
        <Guarded screen="upload">
          <LazyUploadPage />
        </Guarded>
      </Route>
      <Route>
        <Guarded screen="records">
          <PageHeader title="Page not found" subtitle="This address is not part of IVUS Review." />
        </Guarded>
      </Route>
    </Switch>
  );
}
