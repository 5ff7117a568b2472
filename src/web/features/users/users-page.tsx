import { useMemo } from 'react';
import { Tabs } from '@chakra-ui/react';
import { useApi } from '../../api/api-context.tsx';
import { PageHeader } from '../../ui/page-header.tsx';
import { ErrorState } from '../../ui/states.tsx';
import { AuditTab } from './audit-tab.tsx';
import { dicomCallersApi } from './dicom-callers-api.ts';
import { pacsAdminApi } from './pacs-api.ts';
import { PacsTab } from './pacs-tab.tsx';
import { usersApi } from './users-api.ts';
import { UsersTab } from './users-tab.tsx';

export interface UsersPageProps {
  isAdmin: boolean;
  /** The signed-in user's email, to mark their own row (which they cannot disable). */
  currentEmail?: string | null;
}

/**
 * Administrators manage the tenant's accounts, read the audit trail and keep the PACS connections
 * here. The server refuses all three to anyone else; this page only spares them the attempt.
 */
export function UsersPage({ isAdmin, currentEmail = null }: UsersPageProps) {
  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Users" />
        <ErrorState title="Not permitted" message="Only administrators can manage users." />
      </>
    );
  }
  return <UserAdministration currentEmail={currentEmail} />;
}

function UserAdministration({ currentEmail }: { currentEmail: string | null }) {
  const api = useApi();
  const users = useMemo(() => usersApi(api), [api]);
  const pacs = useMemo(() => pacsAdminApi(api), [api]);
  const callers = useMemo(() => dicomCallersApi(api), [api]);
  return (
    <>
      <PageHeader title="Users" subtitle="Accounts of this organisation, what happened to them, and the PACS it works with." />
      <Tabs.Root defaultValue="users" lazyMount unmountOnExit variant="line" colorPalette="teal">
        <Tabs.List mb="4">
          <Tabs.Trigger value="users">Users</Tabs.Trigger>
          <Tabs.Trigger value="audit">Audit trail</Tabs.Trigger>
          <Tabs.Trigger value="pacs">PACS</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="users">
          <UsersTab users={users} currentEmail={currentEmail} />
        </Tabs.Content>
        <Tabs.Content value="audit">
          <AuditTab users={users} />
        </Tabs.Content>
        <Tabs.Content value="pacs">
          <PacsTab pacs={pacs} callers={callers} />
        </Tabs.Content>
      </Tabs.Root>
    </>
  );
}
