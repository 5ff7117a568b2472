import { useId, type ReactNode } from 'react';
import { IconButton, Portal, Tooltip, VisuallyHidden } from '@chakra-ui/react';
import { ariaKeyShortcut, useShortcut } from './shortcuts.ts';

export interface ToolbarButtonProps {
  label: string;
  icon: ReactNode;
  /** Shown in the tooltip and active on the whole page, e.g. 'Ctrl+S'. */
  shortcut?: string;
  onActivate: () => void;
  /** For toggles (tools): whether the button is switched on. */
  pressed?: boolean;
  disabled?: boolean;
  /** Why the button is disabled; shown in its tooltip and read by screen readers. */
  disabledReason?: string;
  tooltipPlacement?: 'left' | 'right' | 'top' | 'bottom';
  /** Draws the eye (Save while there are unsaved changes); the reason is added to the tooltip. */
  attention?: string | undefined;
}

/**
 * An icon button of the side toolbars. A disabled one stays focusable (aria-disabled) so that
 * keyboard users can still reach its tooltip and learn why it is disabled.
 */
export function ToolbarButton({
  label,
  icon,
  shortcut,
  onActivate,
  pressed,
  disabled = false,
  disabledReason,
  tooltipPlacement = 'right',
  attention,
}: ToolbarButtonProps) {
  const reasonId = useId();
  // A disabled button still owns its shortcut, so that e.g. Ctrl+S never opens the browser's own save dialog.
  useShortcut(shortcut, () => {
    if (!disabled) onActivate();
  });
  const hint = shortcut ? `${label} (${shortcut})` : label;
  const tooltip = disabled && disabledReason ? `${hint}: ${disabledReason}` : attention ? `${hint}: ${attention}` : hint;

  return (
    <Tooltip.Root openDelay={300} closeDelay={0} positioning={{ placement: tooltipPlacement }}>
      <Tooltip.Trigger asChild>
        <IconButton
          aria-label={label}
          aria-pressed={pressed}
          aria-disabled={disabled || undefined}
          aria-describedby={disabled && disabledReason ? reasonId : undefined}
          aria-keyshortcuts={shortcut ? ariaKeyShortcut(shortcut) : undefined}
          data-active={pressed ? '' : undefined}
          data-attention={attention ? '' : undefined}
          variant={pressed || attention ? 'solid' : 'ghost'}
          colorPalette={attention ? 'orange' : undefined}
          size="md"
          onClick={() => {
            if (!disabled) onActivate();
          }}
        >
          {icon}
        </IconButton>
      </Tooltip.Trigger>
      {disabled && disabledReason ? <VisuallyHidden id={reasonId}>{disabledReason}</VisuallyHidden> : null}
      <Portal>
        <Tooltip.Positioner>
          <Tooltip.Content>{tooltip}</Tooltip.Content>
        </Tooltip.Positioner>
      </Portal>
    </Tooltip.Root>
  );
}
