import { describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { AppLayout } from '../../../src/web/app/app-layout.tsx';
import { LeftToolbar } from '../../../src/web/app/left-toolbar.tsx';
import type { Screen } from '../../../src/web/app/screens.ts';
import { ReviewSessionProvider } from '../../../src/web/review/session/review-session-provider.tsx';
import { quietApi } from '../review/session/session-fixture.tsx';
import { renderApp, sessionUser, startFakeAuth } from '../render.tsx';

const TOOL_NAMES = ['Ruler', 'Area', 'Text', 'Angle', 'Brightness', 'Contour'];
const BOTTOM = ['Upload', 'Users', 'Dark theme', 'Sign out'];

async function renderScreen(screenName: Screen, { admin = false } = {}) {
  const auth = await startFakeAuth({ user: sessionUser({ admin }) });
  return renderApp(
    <ReviewSessionProvider patientId="P-1" recordId="R-1">
      <AppLayout screen={screenName}>
        <p>content</p>
      </AppLayout>
    </ReviewSessionProvider>,
    { auth, path: '/somewhere', api: quietApi() },
  );
}

function buttonNames(container: HTMLElement): string[] {
  return within(container)
    .queryAllByRole('button')
    .map((button) => button.getAttribute('aria-label') ?? '');
}

describe('toolbars per screen (spec section 2)', () => {
  it.each<[Screen, string[]]>([
    ['patients', BOTTOM],
    ['records', ['Navigate back', ...BOTTOM]],
    ['upload', ['Navigate back', ...BOTTOM]],
    ['users', ['Navigate back', ...BOTTOM]],
    ['review', ['Navigate back', 'Save', ...TOOL_NAMES, ...BOTTOM]],
  ])('%s shows %j in the left bar', async (screenName, expected) => {
    await renderScreen(screenName);
    expect(buttonNames(screen.getByRole('navigation', { name: 'Main toolbar' }))).toEqual(expected);
  });

  it('shows an empty left bar on login', () => {
    renderApp(<LeftToolbar screen="login" isAdmin={false} />);
    expect(buttonNames(screen.getByRole('navigation', { name: 'Main toolbar' }))).toEqual([]);
  });

  it('shows the right toolbar with Play (disabled) on review only', async () => {
    await renderScreen('review');
    // Its code loads on demand (issue 27: not part of the first load).
    const right = await screen.findByRole('complementary', { name: 'Playback toolbar' });
    const play = within(right).getByRole('button', { name: 'Play' });
    expect(play.getAttribute('aria-disabled')).toBe('true');
    expect(within(right).queryByRole('button', { name: 'Pause' })).toBeNull();
  });

  it.each<Screen>(['patients', 'records', 'upload', 'users'])('has no right toolbar on %s', async (screenName) => {
    await renderScreen(screenName);
    expect(screen.queryByRole('complementary', { name: 'Playback toolbar' })).toBeNull();
  });
});

describe('review tools', () => {
  const pressed = (name: string) => screen.getByRole('button', { name }).getAttribute('aria-pressed');

  it('activates and highlights a clicked tool, and deselects it on a second click', async () => {
    const user = userEvent.setup();
    await renderScreen('review');
    expect(TOOL_NAMES.map(pressed)).toEqual(TOOL_NAMES.map(() => 'false'));

    await user.click(screen.getByRole('button', { name: 'Ruler' }));
    expect(pressed('Ruler')).toBe('true');
    expect(screen.getByRole('button', { name: 'Ruler' }).hasAttribute('data-active')).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Area' }));
    expect(pressed('Ruler')).toBe('false');
    expect(pressed('Area')).toBe('true');

    await user.click(screen.getByRole('button', { name: 'Area' }));
    expect(TOOL_NAMES.map(pressed)).toEqual(TOOL_NAMES.map(() => 'false'));
  });

  it('toggles tools with their keyboard shortcuts', async () => {
    const user = userEvent.setup();
    await renderScreen('review');
    await user.keyboard('g');
    expect(pressed('Angle')).toBe('true');
    await user.keyboard('c');
    expect(pressed('Contour')).toBe('true');
    expect(pressed('Angle')).toBe('false');
    await user.keyboard('c');
    expect(pressed('Contour')).toBe('false');
  });

  it('ignores shortcuts typed into a field', async () => {
    const user = userEvent.setup();
    const auth = await startFakeAuth();
    renderApp(
      <ReviewSessionProvider patientId="P-1" recordId="R-1">
        <AppLayout screen="review">
          <input aria-label="Note" />
        </AppLayout>
      </ReviewSessionProvider>,
      { auth, api: quietApi() },
    );
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'rat');
    expect(TOOL_NAMES.map(pressed)).toEqual(TOOL_NAMES.map(() => 'false'));
  });

  it('names the shortcut of every button', async () => {
    await renderScreen('review', { admin: true });
    const left = screen.getByRole('navigation', { name: 'Main toolbar' });
    for (const button of within(left).getAllByRole('button')) {
      expect(button.getAttribute('aria-keyshortcuts')).toBeTruthy();
    }
    expect(screen.getByRole('button', { name: 'Ruler' }).getAttribute('aria-keyshortcuts')).toBe('R');
    expect(screen.getByRole('button', { name: 'Save' }).getAttribute('aria-keyshortcuts')).toBe('Control+S');
  });
});

describe('left bar buttons', () => {
  it('disables Users for non-administrators and says why', async () => {
    const user = userEvent.setup();
    const { currentPath } = await renderScreen('patients');
    const users = screen.getByRole('button', { name: 'Users' });
    expect(users.getAttribute('aria-disabled')).toBe('true');
    expect(document.getElementById(users.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Administrators only');
    await user.click(users);
    expect(currentPath()).toBe('/somewhere');
  });

  it('shows the shortcut, and why a button is disabled, in its tooltip', async () => {
    const user = userEvent.setup();
    await renderScreen('patients');
    await user.hover(screen.getByRole('button', { name: 'Upload' }));
    expect((await screen.findByRole('tooltip')).textContent).toBe('Upload (Shift+U)');
    await user.unhover(screen.getByRole('button', { name: 'Upload' }));
    await user.hover(screen.getByRole('button', { name: 'Users' }));
    const tooltip = await screen.findByText('Users (Shift+M): Administrators only');
    expect(tooltip.closest('[role="tooltip"]')).toBeTruthy();
  });

  it('opens /users for administrators', async () => {
    const user = userEvent.setup();
    const { currentPath } = await renderScreen('patients', { admin: true });
    const users = screen.getByRole('button', { name: 'Users' });
    expect(users.getAttribute('aria-disabled')).toBeNull();
    await user.click(users);
    expect(currentPath()).toBe('/users');
  });

  it('opens /upload and /logout', async () => {
    const user = userEvent.setup();
    const { currentPath } = await renderScreen('records');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(currentPath()).toBe('/upload');
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(currentPath()).toBe('/logout');
  });

  it('goes one page back in history, also with Alt+ArrowLeft', async () => {
    const user = userEvent.setup();
    const back = vi.spyOn(window.history, 'back').mockImplementation(() => undefined);
    await renderScreen('records');
    await user.click(screen.getByRole('button', { name: 'Navigate back' }));
    await user.keyboard('{Alt>}{ArrowLeft}{/Alt}');
    expect(back).toHaveBeenCalledTimes(2);
  });
});
