import { describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import type { ImagePanelProps } from '../../../../src/web/review/panels/image-panel.tsx';
import { missingSeriesNote, NO_ANGIO_NOTE, NO_PULLBACK_NOTE } from '../../../../src/web/review/panels/missing-series.ts';
import { collapseMissing, DEFAULT_PANEL_SIZES } from '../../../../src/web/review/panels/panel-sizes.ts';
import { ReviewPanels } from '../../../../src/web/review/panels/review-panels.tsx';
import { ImageStore } from '../../../../src/web/review/frames/image-store.ts';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { ReviewSessionProvider } from '../../../../src/web/review/session/review-session-provider.tsx';
import { renderApp } from '../../render.tsx';
import { quietApi } from '../session/session-fixture.tsx';

function panelsOf(store: ImageStore) {
  return { store, cursor: new SliceCursor(store) };
}

// jsdom has no WebGL: a GPU panel is a stand-in telling whether it would start its context and its width.
vi.mock('../../../../src/web/review/panels/image-panel.tsx', () => ({
  ImagePanel: ({ kind, startGpu, widthPercent }: ImagePanelProps) => (
    <section aria-label={`${kind} gpu panel`} data-testid={`gpu-panel-${kind}`} data-start-gpu={String(startGpu)} data-width={widthPercent} />
  ),
}));

function renderPanels(missing: { noPullback?: boolean; noAngio?: boolean } = {}) {
  renderApp(
    <ReviewSessionProvider patientId="P-1" recordId="R-1">
      <ReviewPanels {...panelsOf(new ImageStore())} {...missing} />
    </ReviewSessionProvider>,
    { api: quietApi() },
  );
}

const width = (kind: string) => Number(screen.getByTestId(`gpu-panel-${kind}`).getAttribute('data-width'));
const splitters = () => screen.queryAllByRole('separator').map((splitter) => splitter.getAttribute('aria-label'));

describe('panels follow the record (issue 26: a missing series collapses its panel)', () => {
  it('give an angiography run without its pullback the whole row, and start it at once', () => {
    renderPanels({ noPullback: true });
    expect(screen.getByTestId('gpu-panel-angio').getAttribute('data-start-gpu')).toBe('true');
    expect(screen.queryByTestId('gpu-panel-bmode')).toBeNull();
    expect(screen.queryByTestId('gpu-panel-lmode')).toBeNull();
    expect(width('angio')).toBe(95);
    expect(splitters()).toEqual([]);
    // No spinner waits for frames that will not come.
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('share the angio panel’s width between B-mode and L-mode when there is no angiography run', () => {
    renderPanels({ noAngio: true });
    expect(screen.queryByTestId('gpu-panel-angio')).toBeNull();
    expect(width('bmode')).toBeGreaterThan(45);
    expect(width('bmode') + width('lmode')).toBeCloseTo(95, 0);
    expect(splitters()).toEqual(['Resize B-mode and L-mode panels']);
  });

  it('draw all three panels for a record with both series, the angio panel after the B-mode', () => {
    renderPanels();
    expect(screen.getByTestId('gpu-panel-bmode').getAttribute('data-start-gpu')).toBe('true');
    expect(screen.getByTestId('gpu-panel-angio').getAttribute('data-start-gpu')).toBe('false');
    expect([width('angio'), width('bmode'), width('lmode')]).toEqual([...DEFAULT_PANEL_SIZES]);
    expect(splitters()).toHaveLength(2);
  });
});

describe('collapseMissing and the note', () => {
  it('gives a missing panel’s width to the others in proportion, and keeps a full set as it is', () => {
    expect(collapseMissing([30, 45, 20], [true, true, true])).toEqual([30, 45, 20]);
    expect(collapseMissing([30, 45, 20], [true, false, false])).toEqual([95, 0, 0]);
    expect(collapseMissing([30, 45, 20], [false, true, true])).toEqual([0, 65.8, 29.2]);
    expect(collapseMissing([30, 45, 20], [false, false, false])).toEqual([0, 0, 0]);
  });

  it('says in one line which series is missing, and nothing when none is', () => {
    expect(missingSeriesNote({ pullback: true, angio: false })).toBe(NO_PULLBACK_NOTE);
    expect(missingSeriesNote({ pullback: false, angio: true })).toBe(NO_ANGIO_NOTE);
    expect(missingSeriesNote({ pullback: false, angio: false })).toBeNull();
  });
});
