import { Text } from '@chakra-ui/react';
import { PageHeader } from '../../ui/page-header.tsx';
import { ErrorState } from '../../ui/states.tsx';

/** Administrators manage the tenant's users here; the list itself is the user-administration work. */
export function UsersPage({ isAdmin }: { isAdmin: boolean }) {
  if (!isAdmin) {
    return (
      <>
        <PageHeader title="Users" />
        <ErrorState title="Not permitted" message="Only administrators can manage users." />
      </>
    );
  }
  return (
    <>
      <PageHeader title="Users" />
      <Text color="fg.muted">User administration</Text>
    </>
  );
}
