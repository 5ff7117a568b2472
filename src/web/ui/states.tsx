import type { ReactNode } from 'react';
import { Box, Button, Center, EmptyState as ChakraEmptyState, Stack, Text, VStack } from '@chakra-ui/react';
import { AlertIcon } from './icons.tsx';
import { DelayedSpinner } from './delayed-spinner.tsx';

export function LoadingState({ label = 'Loading…' }: { label?: string }) {
  return (
    <Center py="12" role="status" aria-live="polite">
      <VStack gap="3">
        <DelayedSpinner size="lg" color="colorPalette.solid" />
        <Text color="fg.muted">{label}</Text>
      </VStack>
    </Center>
  );
}

export interface EmptyStateProps {
  title: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  children?: ReactNode;
}

export function EmptyState({ title, description, icon, children }: EmptyStateProps) {
  return (
    <ChakraEmptyState.Root data-testid="empty-state">
      <ChakraEmptyState.Content>
        {icon ? <ChakraEmptyState.Indicator>{icon}</ChakraEmptyState.Indicator> : null}
        <VStack textAlign="center">
          <ChakraEmptyState.Title>{title}</ChakraEmptyState.Title>
          {description ? <ChakraEmptyState.Description>{description}</ChakraEmptyState.Description> : null}
        </VStack>
        {children}
      </ChakraEmptyState.Content>
    </ChakraEmptyState.Root>
  );
}

export interface ErrorStateProps {
  title?: ReactNode;
  message: ReactNode;
  onRetry?: () => void;
  children?: ReactNode;
}

/** A failure the user can read, and retry when retrying can help. */
export function ErrorState({ title = 'Something went wrong', message, onRetry, children }: ErrorStateProps) {
  return (
    <Box role="alert" data-testid="error-state" borderWidth="1px" borderColor="border.error" bg="bg.error" rounded="l2" p="6">
      <Stack gap="3" align="flex-start">
        <Stack direction="row" align="center" gap="2" color="fg.error" fontWeight="semibold">
          <AlertIcon boxSize="5" />
          <Text>{title}</Text>
        </Stack>
        <Text>{message}</Text>
        {onRetry || children ? (
          <Stack direction="row" gap="3">
            {onRetry ? (
              <Button onClick={onRetry} size="sm">
                Retry
              </Button>
            ) : null}
            {children}
          </Stack>
        ) : null}
      </Stack>
    </Box>
  );
}
