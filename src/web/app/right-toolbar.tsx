import { Button, Flex, Menu, Portal } from '@chakra-ui/react';
import { PLAYBACK_SHORTCUT, PLAYBACK_SPEEDS, speedBadge, speedLabel, usePlaybackControls, useSpaceToggle, type PlaybackSpeed } from '../review/index.ts';
import { ToolbarButton } from '../ui/toolbar-button.tsx';
import { RIGHT_TOOLBAR_WIDTH } from './screens.ts';
import { PauseIcon, PlayIcon } from '../ui/icons.tsx';

/**
 * Spec section 2: Play shows while playback is stopped, Pause while it runs, both disabled until
 * min(100, frame count) images are in (the record's own count, in the tooltip). Both are the user's own (manual) resume and pause.
 */
export function RightToolbar() {
  const { running, canPlay, waitReason, play, pause, toggle, speed, setSpeed, frameRateHz } = usePlaybackControls();
  useSpaceToggle(toggle);
  const shared = {
    shortcut: PLAYBACK_SHORTCUT,
    disabled: !canPlay,
    disabledReason: waitReason,
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
      width={RIGHT_TOOLBAR_WIDTH}
      flexShrink={0}
    >
      {running ? (
        <ToolbarButton key="pause" label="Pause" icon={<PauseIcon />} onActivate={pause} {...shared} />
      ) : (
        <ToolbarButton key="play" label="Play" icon={<PlayIcon />} onActivate={play} {...shared} />
      )}
      <SpeedMenu speed={speed} onChange={setSpeed} frameRateHz={frameRateHz} />
    </Flex>
  );
}

/** The playback speed, beside Play: the spec's 100 frames a second, the acquisition's real time, or twice that. */
function SpeedMenu({ speed, onChange, frameRateHz }: { speed: PlaybackSpeed; onChange: (speed: PlaybackSpeed) => void; frameRateHz: number | null }) {
  return (
    <Menu.Root positioning={{ placement: 'left-start' }}>
      <Menu.Trigger asChild>
        <Button aria-label={`Playback speed: ${speedLabel(speed, frameRateHz)}`} variant="ghost" size="xs" px="1" minWidth="10" fontVariantNumeric="tabular-nums">
          {speedBadge(speed)}
        </Button>
      </Menu.Trigger>
      <Portal>
        <Menu.Positioner>
          <Menu.Content minWidth="14rem">
            <Menu.RadioItemGroup value={speed} onValueChange={({ value }) => onChange(value as PlaybackSpeed)}>
              <Menu.ItemGroupLabel>Playback speed</Menu.ItemGroupLabel>
              {PLAYBACK_SPEEDS.map((option) => (
                <Menu.RadioItem key={option} value={option} disabled={option !== 'spec' && frameRateHz === null}>
                  {speedLabel(option, frameRateHz)}
                  <Menu.ItemIndicator />
                </Menu.RadioItem>
              ))}
            </Menu.RadioItemGroup>
          </Menu.Content>
        </Menu.Positioner>
      </Portal>
    </Menu.Root>
  );
}
