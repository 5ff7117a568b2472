import { Text } from '@chakra-ui/react';
import { PageHeader } from '../../ui/page-header.tsx';

export function UploadPage() {
  return (
    <>
      <PageHeader title="Upload" />
      <Text color="fg.muted">Upload imaging records</Text>
    </>
  );
}
