import type { ReactNode } from 'react';
import { Box, Flex } from '@chakra-ui/react';
import { Redirect, Route, Switch } from 'wouter';
import { useAuthUser } from '../auth/auth-context.tsx';
import { PatientsPage } from '../features/patients/patients-page.tsx';
import { RecordsPage } from '../features/records/records-page.tsx';
import { UploadPage } from '../features/upload/upload-page.tsx';
import { UsersPage } from '../features/users/users-page.tsx';
import { AnnotationDraftOffer, ReviewPage, ReviewSessionProvider } from '../review/index.ts';
import { PageHeader } from '../ui/page-header.tsx';
import { AppLayout } from './app-layout.tsx';
import { RequireAuth } from './require-auth.tsx';
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
  return <UsersPage isAdmin={user?.isAdmin ?? false} currentEmail={user?.email ?? null} />;
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
            <RecordsPage key={patientId} patientId={patientId} />
          </Guarded>
        )}
      </Route>
      <Route path="/patients/:patientId/records/:recordId/review">
        {({ patientId, recordId }) => (
          <RequireAuth>
            {/* Inside RequireAuth (it loads with the user's token), around the layout (its toolbars use it); one session per record. */}
            <ReviewSessionProvider key={`${patientId}/${recordId}`} patientId={patientId} recordId={recordId}>
              <AppLayout screen="review" fullBleed>
                {/* The draft offer is a bar above the review, in the layout's flow: it never covers the image. */}
                <Flex direction="column" height="full">
                  <AnnotationDraftOffer />
                  <Box flex="1" minHeight="0">
                    <ReviewPage patientId={patientId} recordId={recordId} />
                  </Box>
                </Flex>
              </AppLayout>
            </ReviewSessionProvider>
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
          <UploadPage />
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
