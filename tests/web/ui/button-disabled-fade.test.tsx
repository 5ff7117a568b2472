/**
 * Issue 27: Save and Play turn enabled by themselves while a review sets up. A fade of their
 * opacity was 0.2 s of compositor animation (a composited frame every display refresh) before and
 * right after Play; the disabled state now shows at once, and only colours ease.
 */
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { Button } from '@chakra-ui/react';
import { act, screen } from '@testing-library/react';
import { ToolbarButton } from '../../../src/web/ui/toolbar-button.tsx';
import { DISABLED_OPACITY } from '../../../src/domain/constants.ts';
import { renderApp } from '../render.tsx';

const transitioned = (element: HTMLElement) => getComputedStyle(element).transitionProperty.split(',').map((p) => p.trim());

describe('a button that turns enabled', () => {
  it('shows a toolbar button enabled at once, with no opacity fade, while its colours still ease', () => {
    let framesIn = () => undefined as void;
    function Play() {
      const [disabled, setDisabled] = useState(true);
      framesIn = () => setDisabled(false);
      return <ToolbarButton label="Play" icon={<span />} disabled={disabled} disabledReason="The frames are still loading" onActivate={() => undefined} />;
    }
    renderApp(<Play />);
    const button = screen.getByRole('button', { name: 'Play' });
    expect(getComputedStyle(button).opacity).toBe(String(DISABLED_OPACITY));
    expect(transitioned(button)).not.toContain('opacity');

    act(() => framesIn());
    expect(button.getAttribute('aria-disabled')).toBeNull();
    expect(getComputedStyle(button).opacity).not.toBe(String(DISABLED_OPACITY));
    expect(transitioned(button)).not.toContain('opacity');
    expect(transitioned(button)).toEqual(expect.arrayContaining(['background-color', 'color', 'box-shadow']));
  });

  it('does the same for a text button (Send to PACS turns enabled once the corrections are in)', () => {
    renderApp(<Button aria-disabled>Send to PACS</Button>);
    const button = screen.getByRole('button', { name: 'Send to PACS' });
    expect(getComputedStyle(button).opacity).toBe(String(DISABLED_OPACITY));
    expect(transitioned(button)).not.toContain('opacity');
    expect(transitioned(button)).toContain('background-color');
  });
});
