import { Box, Center, Stack, Text } from '@chakra-ui/react';
import { ImageIcon } from '../../ui/icons.tsx';

export const NO_PULLBACK_MESSAGE = 'The pullback of this study has not arrived yet';

/**
 * Stands in for the B-mode or L-mode panel of a record that holds an angiography run only: it says
 * why there is no image, where a black panel (or a spinner waiting for frames that will not come)
 * would look like a fault.
 */
export function NoPullbackPanel({ kind, label, widthPercent }: { kind: 'bmode' | 'lmode'; label: string; widthPercent: number }) {
  return (
    <Box as="section" aria-label={`${label} panel`} data-panel={kind} flex={`0 0 ${widthPercent}%`} minWidth="0" bg="bg.subtle" data-testid={`no-pullback-${kind}`}>
      <Center height="full" p="4">
        <Stack align="center" gap="2" textAlign="center" maxWidth="22rem">
          <ImageIcon boxSize="8" color="fg.muted" />
          <Text fontWeight="medium">{NO_PULLBACK_MESSAGE}</Text>
          {kind === 'bmode' ? (
            <Text textStyle="sm" color="fg.muted">
              This record holds an angiography run only. Its B-mode frames and L-mode view appear once the IVUS pullback of the same study is
              imported.
            </Text>
          ) : null}
        </Stack>
      </Center>
    </Box>
  );
}
