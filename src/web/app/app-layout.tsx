import { lazy, Suspense, type ReactNode } from 'react';
import { Box, Flex, SkipNavContent, SkipNavLink } from '@chakra-ui/react';
import { useAuthUser } from '../auth/auth-context.tsx';
import { LeftToolbar } from './left-toolbar.tsx';
import { RIGHT_TOOLBAR_WIDTH, toolbarLayout, type Screen } from './screens.ts';

/**
 * The playback toolbar shows on the review only: its code (the speed menu, zag's menu and popper)
 * is not part of the first load (issue 27). The review screen starts this download beside the
 * review's own, so it is mostly in by the time the review renders; when it is not (a busy machine), a
 * placeholder of its width keeps the review's layout from shifting as it arrives.
 */
export const loadRightToolbar = () => import('./right-toolbar.tsx').then((module) => ({ default: module.RightToolbar }));
const RightToolbar = lazy(loadRightToolbar);

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
      {layout.right ? (
        <Suspense fallback={<Box width={RIGHT_TOOLBAR_WIDTH} flexShrink={0} borderStartWidth="1px" bg="bg.subtle" data-testid="right-toolbar-placeholder" />}>
          <RightToolbar />
        </Suspense>
      ) : null}
    </Flex>
  );
}
