import { describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useConfirm, type ConfirmOptions } from '../../../src/web/ui/confirm.tsx';
import { useToast, type ToastMessage } from '../../../src/web/ui/toast.tsx';
import { renderApp } from '../render.tsx';

function ToastButton({ message }: { message: ToastMessage }) {
  const toast = useToast();
  return <button onClick={() => toast.show(message)}>Notify</button>;
}

let answer: Promise<boolean> | null = null;
function ConfirmButton({ options }: { options: ConfirmOptions }) {
  const confirm = useConfirm();
  return <button onClick={() => (answer = confirm(options))}>Ask</button>;
}

const question: ConfirmOptions = {
  title: 'Disable account?',
  message: 'Dana will no longer be able to sign in.',
  acceptLabel: 'Disable',
  rejectLabel: 'Keep',
};

describe('services used without their provider', () => {
  it('say that the toast service is not provided', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<ToastButton message={{ summary: 'x' }} />)).toThrow('ToastService is not provided');
  });

  it('say that the confirmation service is not provided', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<ConfirmButton options={question} />)).toThrow('ConfirmService is not provided');
  });
});

describe('toast service', () => {
  // The toaster removes a closed toast after its own delay, on timers: these tests move the clock
  // themselves, so a loaded machine (jsdom taking seconds to render) cannot outlast a bounded wait.
  it('shows a message until its close button is pressed', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderApp(<ToastButton message={{ summary: 'User created', detail: 'Dana can sign in now.', severity: 'success' }} />);
      await user.click(screen.getByRole('button', { name: 'Notify' }));
      expect(await screen.findByText('User created')).toBeTruthy();
      expect(screen.getByText('Dana can sign in now.')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      expect(screen.getByText('User created')).toBeTruthy();
      await user.click(screen.getByRole('button', { name: 'Close message' }));
      await act(() => vi.advanceTimersByTimeAsync(5_000));
      expect(screen.queryByText('User created')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('closes by itself after its life time', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderApp(<ToastButton message={{ summary: 'Saved', life: 1_000 }} />);
      await user.click(screen.getByRole('button', { name: 'Notify' }));
      expect(await screen.findByText('Saved')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(6_000));
      expect(screen.queryByText('Saved')).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('stays without a life time', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
      renderApp(<ToastButton message={{ summary: 'Read me' }} />);
      await user.click(screen.getByRole('button', { name: 'Notify' }));
      expect(await screen.findByText('Read me')).toBeTruthy();
      await act(() => vi.advanceTimersByTimeAsync(60_000));
      expect(screen.getByText('Read me')).toBeTruthy();
    } finally {
      vi.useRealTimers();
    }
  });

  it('is 25rem wide at the top end of the window', async () => {
    const user = userEvent.setup();
    renderApp(<ToastButton message={{ summary: 'Placed' }} />);
    await user.click(screen.getByRole('button', { name: 'Notify' }));
    const toast = (await screen.findByText('Placed')).closest('[data-testid="toast"]');
    expect(toast?.getAttribute('data-placement')).toBe('top-end');
    // jsdom resolves rem against its 16px root font size.
    expect(toast && getComputedStyle(toast).width).toBe('400px');
  });
});

describe('confirmation service', () => {
  it('opens a modal dialog with the accept button focused and resolves true on accept', async () => {
    const user = userEvent.setup();
    renderApp(<ConfirmButton options={question} />);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Disable account?' });
    expect(dialog.textContent).toContain('Dana will no longer be able to sign in.');
    const accept = screen.getByRole('button', { name: 'Disable' });
    await waitFor(() => expect(document.activeElement).toBe(accept));
    await user.click(accept);
    await expect(answer).resolves.toBe(true);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('resolves false on reject', async () => {
    const user = userEvent.setup();
    renderApp(<ConfirmButton options={question} />);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await user.click(await screen.findByRole('button', { name: 'Keep' }));
    await expect(answer).resolves.toBe(false);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });

  it('resolves false when hidden with Escape', async () => {
    const user = userEvent.setup();
    renderApp(<ConfirmButton options={question} />);
    await user.click(screen.getByRole('button', { name: 'Ask' }));
    await screen.findByRole('alertdialog');
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Disable' })));
    await user.keyboard('{Escape}');
    await expect(answer).resolves.toBe(false);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
  });
});
