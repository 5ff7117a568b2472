import { Button, HStack, Text } from '@chakra-ui/react';
import { useId, useSyncExternalStore } from 'react';
import { formatBrightnessContrast, isDefaultBrightnessContrast, type BrightnessContrastStore } from '../view/brightness-contrast.ts';

/** The bar's height: the panel's image starts below it. */
export const PANEL_DISPLAY_BAR_PX = 28;
/** Below this width the bar shows only the values and Reset. */
const NAME_MIN_BAR_PX = 290;

export interface PanelDisplayBarProps {
  /** The panel's name as shown ("B-mode"); also names the Reset button for screen readers. */
  label: string;
  display: BrightnessContrastStore;
  testId: string;
}

/**
 * A panel's header: its name, its brightness and contrast, and a Reset button (issue 26). The values
 * are always shown, defaults included: "Brightness 0 · Contrast 1.00" says the image is as stored,
 * which is worth knowing when comparing panels, and the bar keeps one layout (nothing appears or
 * moves under the pointer during a drag). Reset stays in the tab order whatever the values, so
 * keyboard focus is never dropped when it is used; the panel's double-click (brightness tool) does the same.
 * It renders only itself on each drag move (the panel's image is redrawn outside React).
 */
export function PanelDisplayBar({ label, display, testId }: PanelDisplayBarProps) {
  const value = useSyncExternalStore(display.subscribe, display.get);
  const shown = formatBrightnessContrast(value);
  const changed = !isDefaultBrightnessContrast(value);
  const valuesId = useId();
  return (
    <HStack
      data-testid={testId}
      data-brightness={value.brightness.toFixed(3)}
      data-contrast={value.contrast.toFixed(3)}
      data-changed={changed}
      position="absolute"
      top="0"
      insetInline="0"
      height={`${PANEL_DISPLAY_BAR_PX}px`}
      px="2"
      gap="2"
      bg="bg.subtle"
      color="fg"
      textStyle="xs"
      whiteSpace="nowrap"
      overflow="hidden"
      borderBottomWidth="1px"
      css={{ containerType: 'inline-size' }}
    >
      {/* Left out when the panel is too narrow for it (the L-mode on a laptop): the values and Reset
          matter more, and the panel and its Reset are still named for screen readers. */}
      <Text as="h2" fontWeight="semibold" flexShrink={1} minWidth="0" truncate css={{ [`@container (max-width: ${NAME_MIN_BAR_PX - 1}px)`]: { display: 'none' } }}>
        {label}
      </Text>
      <Text
        id={valuesId}
        data-testid={`${testId}-values`}
        marginInlineStart="auto"
        flexShrink={0}
        fontVariantNumeric="tabular-nums"
        // A changed image is marked: what is on screen is not the stored pixels. Text stays in fg,
        // on a tint (orange text on the bar's gray is too faint to read in the light theme).
        fontWeight={changed ? 'semibold' : 'normal'}
        color="fg"
        bg={changed ? 'yellow.subtle' : undefined}
        px="1"
        rounded="sm"
      >
        Brightness {shown.brightness} · Contrast {shown.contrast}
      </Text>
      {/* Named after the panel, with the values it resets as its description. Not "brightness" in its
          name: the toolbar's Brightness tool keeps a name no other button on the page contains. */}
      <Button size="2xs" variant="outline" flexShrink={0} aria-label={`Reset ${label} panel`} aria-describedby={valuesId} onClick={display.reset}>
        Reset
      </Button>
    </HStack>
  );
}
