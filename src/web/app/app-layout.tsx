import type { ReactNode } from 'react';
import { Box, Flex, SkipNavContent, SkipNavLink } from '@chakra-ui/react';
import { useAuthUser } from '../auth/auth-context.tsx';
import { LeftToolbar } from './left-toolbar.tsx';
import { RightToolbar } from './right-toolbar.tsx';
import { toolbarLayout, type Screen } from './screens.ts';

export interface AppLayoutProps {
  screen: Screen;
  children: ReactNode;
  /** The review fills the window with its panels; other screens are padded documents. */
  fullBleed?: boolean;
}

export function AppLayout({ screen, children, fullBleed = false }: AppLayoutProps) {
  const user = useAuthUser();
  const layout = toolbarLayout(screen);
  return (
    <Flex height="100dvh" overflow="hidden" bg="bg" color="fg" data-screen={screen}>
      <SkipNavLink>Skip to content</SkipNavLink>
      <LeftToolbar screen={screen} isAdmin={user?.isAdmin ?? false} />
      <Box as="main" flex="1" minWidth="0" overflow="auto" p={fullBleed ? '0' : { base: '4', md: '8' }}>
        <SkipNavContent />
        {children}
      </Box>
      {layout.right ? <RightToolbar /> : null}
    </Flex>
  );
}
