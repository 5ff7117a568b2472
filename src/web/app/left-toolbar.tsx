import type { ComponentType } from 'react';
import { Flex, Separator, Stack } from '@chakra-ui/react';
import { useLocation } from 'wouter';
import { ToolbarButton } from '../ui/toolbar-button.tsx';
import { useColorMode } from '../ui/theme.tsx';
import {
  AngleIcon,
  AreaIcon,
  BackIcon,
  BrightnessIcon,
  ContourIcon,
  MoonIcon,
  RulerIcon,
  SaveIcon,
  SignOutIcon,
  SunIcon,
  TextIcon,
  UploadIcon,
  UsersIcon,
} from '../ui/icons.tsx';
import { TOOLS, useActiveTool, useActiveToolStore, useAnnotationSession, useConfirmLeave, useReviewTools, useSaveState, type ToolId } from '../review/index.ts';
import { toolbarLayout, type Screen } from './screens.ts';

const TOOL_ICONS: Record<ToolId, ComponentType> = {
  ruler: RulerIcon,
  area: AreaIcon,
  text: TextIcon,
  angle: AngleIcon,
  brightness: BrightnessIcon,
  contour: ContourIcon,
};

/** Shortcuts of the buttons outside the review tools; the tools carry theirs in TOOLS. */
export const SHORTCUTS = {
  back: 'Alt+ArrowLeft',
  save: 'Ctrl+S',
  upload: 'Shift+U',
  users: 'Shift+M',
  theme: 'Shift+D',
  signOut: 'Shift+Q',
} as const;

function ToolButtons() {
  const store = useActiveToolStore();
  const active = useActiveTool();
  // The open record's tools: a loop that is not IVUS has no contour tool (and so no C shortcut).
  const offered = useReviewTools();
  return (
    <Stack gap="1" role="group" aria-label="Annotation tools">
      {TOOLS.filter(({ id }) => offered.includes(id)).map(({ id, label, shortcut }) => {
        const ToolIcon = TOOL_ICONS[id];
        return (
          <ToolbarButton
            key={id}
            label={label}
            icon={<ToolIcon />}
            shortcut={shortcut}
            pressed={active === id}
            onActivate={() => store.toggle(id)}
          />
        );
      })}
    </Stack>
  );
}

function ThemeButton() {
  const { colorMode, toggleColorMode } = useColorMode();
  return (
    <ToolbarButton
      label="Dark theme"
      icon={colorMode === 'dark' ? <MoonIcon /> : <SunIcon />}
      shortcut={SHORTCUTS.theme}
      pressed={colorMode === 'dark'}
      onActivate={toggleColorMode}
    />
  );
}

function SaveButton() {
  const session = useAnnotationSession();
  const { ready, dirty, saving } = useSaveState(session);
  const reason = !session ? 'Open a record to save its annotations' : saving ? 'Saving…' : !ready ? 'The annotations are still loading' : undefined;
  return (
    <ToolbarButton
      label="Save"
      icon={<SaveIcon />}
      shortcut={SHORTCUTS.save}
      disabled={reason !== undefined}
      disabledReason={reason}
      attention={dirty ? 'unsaved changes' : undefined}
      onActivate={() => void session?.save()}
    />
  );
}

export interface LeftToolbarProps {
  screen: Screen;
  isAdmin: boolean;
}

/** Spec section 2: the screen's own buttons at the top, the app's at the bottom (not on login). */
export function LeftToolbar({ screen, isAdmin }: LeftToolbarProps) {
  const layout = toolbarLayout(screen);
  const [, goTo] = useLocation();
  const confirmLeave = useConfirmLeave();
  // Leaving a review with unsaved annotations asks first.
  const navigate = (to: string) => void confirmLeave().then((leave) => leave && goTo(to));

  return (
    <Flex
      as="nav"
      aria-label="Main toolbar"
      data-testid="left-toolbar"
      direction="column"
      justify="space-between"
      align="center"
      gap="2"
      py="3"
      px="2"
      borderEndWidth="1px"
      bg="bg.subtle"
      flexShrink={0}
      overflowY="auto"
    >
      <Stack gap="1" align="center">
        {layout.back ? (
          <ToolbarButton
            label="Navigate back"
            icon={<BackIcon />}
            shortcut={SHORTCUTS.back}
            onActivate={() => void confirmLeave().then((leave) => leave && window.history.back())}
          />
        ) : null}
        {layout.save ? <SaveButton /> : null}
        {layout.tools ? (
          <>
            <Separator width="full" />
            <ToolButtons />
          </>
        ) : null}
      </Stack>
      {layout.bottom ? (
        <Stack gap="1" align="center">
          <ToolbarButton
            label="Upload"
            icon={<UploadIcon />}
            shortcut={SHORTCUTS.upload}
            onActivate={() => navigate('/upload')}
          />
          <ToolbarButton
            label="Users"
            icon={<UsersIcon />}
            shortcut={SHORTCUTS.users}
            disabled={!isAdmin}
            disabledReason="Administrators only"
            onActivate={() => navigate('/users')}
          />
          <ThemeButton />
          <ToolbarButton
            label="Sign out"
            icon={<SignOutIcon />}
            shortcut={SHORTCUTS.signOut}
            onActivate={() => navigate('/logout')}
          />
        </Stack>
      ) : null}
    </Flex>
  );
}
