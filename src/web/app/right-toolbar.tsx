import { Flex } from '@chakra-ui/react';
import { MIN_BMODE_IMAGES_FOR_PLAYBACK } from '../../domain/constants.ts';
import { ToolbarButton } from '../ui/toolbar-button.tsx';
import { PlayIcon } from '../ui/icons.tsx';

export const PLAY_SHORTCUT = 'P';

/**
 * Spec section 2: Play shows while playback is stopped, Pause while it runs, both disabled below
 * the B-mode image threshold. Nothing plays yet, so this is Play, disabled; the playback work wires it.
 */
export function RightToolbar() {
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
      <ToolbarButton
        label="Play"
        icon={<PlayIcon />}
        shortcut={PLAY_SHORTCUT}
        disabled
        disabledReason={`Needs at least ${MIN_BMODE_IMAGES_FOR_PLAYBACK} B-mode images loaded`}
        tooltipPlacement="left"
        onActivate={() => undefined}
      />
    </Flex>
  );
}
