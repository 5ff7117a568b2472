import type { ReactNode } from 'react';
import { Box, Center, Heading, Stack, Text } from '@chakra-ui/react';

export interface FullPageMessageProps {
  title: ReactNode;
  children?: ReactNode;
  /** Buttons or links under the message. */
  actions?: ReactNode;
  /** 'alert' for failures so screen readers announce them at once. */
  role?: 'alert' | 'status';
}

/** A whole screen for one message: start-up failures, a missing tenant, signing in. */
export function FullPageMessage({ title, children, actions, role = 'status' }: FullPageMessageProps) {
  return (
    <Center as="main" minHeight="100dvh" p="6" bg="bg">
      <Box role={role} maxWidth="32rem" width="full" borderWidth="1px" rounded="l3" p="8" bg="bg.panel" shadow="sm">
        <Stack gap="4">
          <Heading as="h1" size="xl">
            {title}
          </Heading>
          {typeof children === 'string' ? <Text>{children}</Text> : children}
          {actions ? <Stack direction="row" gap="3">{actions}</Stack> : null}
        </Stack>
      </Box>
    </Center>
  );
}
