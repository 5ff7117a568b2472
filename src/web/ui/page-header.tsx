import type { ReactNode } from 'react';
import { Flex, Heading, Stack, Text } from '@chakra-ui/react';

export interface PageHeaderProps {
  title: ReactNode;
  subtitle?: ReactNode;
  /** Controls shown at the end of the header (search box, buttons). */
  actions?: ReactNode;
}

/** The one h1 of a screen, with an optional line under it. */
export function PageHeader({ title, subtitle, actions }: PageHeaderProps) {
  return (
    <Flex as="header" align="flex-end" justify="space-between" gap="4" wrap="wrap" mb="6">
      <Stack gap="1">
        <Heading as="h1" size="2xl">
          {title}
        </Heading>
        {subtitle ? <Text color="fg.muted">{subtitle}</Text> : null}
      </Stack>
      {actions}
    </Flex>
  );
}
