import { Button, HStack, Text } from '@chakra-ui/react';
import { useSyncExternalStore } from 'react';
import { formatBrightnessContrast, isDefaultBrightnessContrast, type BrightnessContrastStore } from '../view/brightness-contrast.ts';

/** The bar's height: the panel's image starts below it. */
export const PANEL_DISPLAY_BAR_PX = 28;

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
 * keyboard focus is never dropped when it is used; the panel's double-click does the same.
 * It renders only itself on each drag move (the panel's image is redrawn outside React).
 */
export function PanelDisplayBar({ label, display, testId }: PanelDisplayBarProps) {
  const value = useSyncExternalStore(display.subscribe, display.get);
  const shown = formatBrightnessContrast(value);
  const changed = !isDefaultBrightnessContrast(value);
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
    >
      <Text as="h2" fontWeight="semibold" flexShrink={1} minWidth="0" truncate>
        {label}
      </Text>
      <Text
        data-testid={`${testId}-values`}
        marginInlineStart="auto"
        flexShrink={0}
        fontVariantNumeric="tabular-nums"
        // A changed image is marked: what is on screen is not the stored pixels.
        fontWeight={changed ? 'semibold' : 'normal'}
        color={changed ? 'fg.warning' : 'fg'}
      >
        Brightness {shown.brightness} · Contrast {shown.contrast}
      </Text>
      <Button size="2xs" variant="outline" flexShrink={0} aria-label={`Reset brightness and contrast of the ${label} panel`} onClick={display.reset}>
        Reset
      </Button>
    </HStack>
  );
}
