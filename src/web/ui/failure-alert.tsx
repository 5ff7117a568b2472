import { Alert } from '@chakra-ui/react';

/** What went wrong, in one line (a refusal, a failed request), announced; nothing while all is well. */
export function FailureAlert({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert.Root status="error" role="alert">
      <Alert.Indicator />
      <Alert.Title>{message}</Alert.Title>
    </Alert.Root>
  );
}
