import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { ImagePanelProps } from '../../../../src/web/review/panels/image-panel.tsx';
import { NO_PULLBACK_MESSAGE } from '../../../../src/web/review/panels/no-pullback-panel.tsx';
import { ReviewPanels } from '../../../../src/web/review/panels/review-panels.tsx';
import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { ReviewSessionProvider } from '../../../../src/web/review/session/review-session-provider.tsx';
import { renderApp } from '../../render.tsx';
import { quietApi } from '../session/session-fixture.tsx';

function panelsOf(store: ImageStore) {
  return { store, cursor: new SliceCursor(store) };
}

// jsdom has no WebGL: a GPU panel is a stand-in telling whether it would start its context.
vi.mock('../../../../src/web/review/panels/image-panel.tsx', () => ({
  ImagePanel: ({ kind, startGpu }: ImagePanelProps) => <section aria-label={`${kind} gpu panel`} data-testid={`gpu-panel-${kind}`} data-start-gpu={String(startGpu)} />,
}));

describe('panels of a record waiting for its pullback', () => {
  it('say the pullback has not arrived in the B-mode and L-mode panels, and start the angio panel at once', () => {
    renderApp(
      <ReviewSessionProvider patientId="P-1" recordId="R-1">
        <ReviewPanels {...panelsOf(new ImageStore())} noPullback />
      </ReviewSessionProvider>,
      { api: quietApi() },
    );
    expect(screen.getByTestId('gpu-panel-angio').getAttribute('data-start-gpu')).toBe('true');
    expect(screen.queryByTestId('gpu-panel-bmode')).toBeNull();
    expect(screen.queryByTestId('gpu-panel-lmode')).toBeNull();
    const bmode = screen.getByRole('region', { name: 'B-mode panel' });
    expect(bmode.textContent).toContain(NO_PULLBACK_MESSAGE);
    expect(bmode.textContent).toContain('This record holds an angiography run only.');
    expect(screen.getByRole('region', { name: 'L-mode panel' }).textContent).toContain(NO_PULLBACK_MESSAGE);
    // No spinner waits for frames that will not come.
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('draw all three panels for a record with its pullback, the angio panel after the B-mode', () => {
    renderApp(
      <ReviewSessionProvider patientId="P-1" recordId="R-1">
        <ReviewPanels {...panelsOf(new ImageStore())} />
      </ReviewSessionProvider>,
      { api: quietApi() },
    );
    expect(screen.getByTestId('gpu-panel-bmode').getAttribute('data-start-gpu')).toBe('true');
    expect(screen.getByTestId('gpu-panel-angio').getAttribute('data-start-gpu')).toBe('false');
    expect(screen.queryByText(NO_PULLBACK_MESSAGE)).toBeNull();
  });
});
