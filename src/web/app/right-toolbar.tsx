import { Flex } from '@chakra-ui/react';
import { MIN_BMODE_IMAGES_FOR_PLAYBACK } from '../../domain/constants.ts';
import { usePlaybackControls } from '../review/playback/playback-context.tsx';
import { PLAYBACK_SHORTCUT, useSpaceToggle } from '../review/playback/use-space-toggle.ts';
import { ToolbarButton } from '../ui/toolbar-button.tsx';
import { PauseIcon, PlayIcon } from '../ui/icons.tsx';

export const PLAYBACK_DISABLED_REASON = `Available once ${MIN_BMODE_IMAGES_FOR_PLAYBACK} B-mode images are loaded`;

/**
 * Spec section 2: Play shows while playback is stopped, Pause while it runs, both disabled below
 * the B-mode image threshold. Both are the user's own (manual) resume and pause.
 */
export function RightToolbar() {
  const { running, canPlay, play, pause, toggle } = usePlaybackControls();
  useSpaceToggle(toggle);
  const shared = {
    shortcut: PLAYBACK_SHORTCUT,
    disabled: !canPlay,
    disabledReason: PLAYBACK_DISABLED_REASON,
    tooltipPlacement: 'left',
  } as const;

  return (
    <Flex
      as="aside"
      aria-label="Playback toolbar"
      data-testid="right-toolbar"
      direction="column"
      align="center"
      gap="1"
      py="3"
      px="2"
      borderStartWidth="1px"
      bg="bg.subtle"
      flexShrink={0}
    >
      {running ? (
        <ToolbarButton key="pause" label="Pause" icon={<PauseIcon />} onActivate={pause} {...shared} />
      ) : (
        <ToolbarButton key="play" label="Play" icon={<PlayIcon />} onActivate={play} {...shared} />
      )}
    </Flex>
  );
}
