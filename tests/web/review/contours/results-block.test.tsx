/**
 * Issue 26: the results block: MLA with MLD, both references with areas and diameters, stenosis and
 * lesion length, placed in mm; each frame a button that goes to it.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { lesionResults } from '../../../../src/domain/contours/lesion-results.ts';
import { provisionalAnalysis } from '../../../../src/domain/contours/provisional-contours.ts';
import { ResultsBlock } from '../../../../src/web/review/contours/results-block.tsx';
import { SliceCursor } from '../../../../src/web/review/frames/slice-cursor.ts';
import { renderApp } from '../../render.tsx';
import { imageStoreFor } from '../playback/image-store-fixture.ts';
import { detectedContours } from './contours-fixture.ts';

const geometry = { frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

function renderBlock({ positionAssumed = false, unreadable = [] as number[] } = {}) {
  const result = correctedAnalysis(detectedContours(120, {}, unreadable), emptyManifest(), geometry);
  const cursor = new SliceCursor(imageStoreFor({ bmodeCount: 120 }));
  renderApp(<ResultsBlock result={result} cursor={cursor} positionAssumed={positionAssumed} />);
  return { results: lesionResults(result), cursor };
}

describe('the results block', () => {
  it('shows the MLA with its MLD, both references with area, mean and min diameter, the stenosis and the lesion length, in mm along the pullback', () => {
    const { results } = renderBlock();
    const { mla, distalReference, proximalReference } = results;
    expect(screen.getByTestId('result-mla').textContent).toBe(`MLA${mla!.areaMm2.toFixed(2)} mm²MLD 2.00 mmat ${mla!.positionMm.toFixed(1)} mm · slice ${mla!.slice}`);
    expect(screen.getByTestId('result-distal-reference').textContent).toContain(`Distal reference${distalReference!.areaMm2.toFixed(2)} mm²mean Ø 2.50 mm · min Ø 2.00 mmat ${distalReference!.positionMm.toFixed(1)} mm`);
    expect(screen.getByTestId('result-proximal-reference').textContent).toContain(`slice ${proximalReference!.slice}`);
    expect(screen.getByTestId('result-stenosis-value').textContent).toBe(`${results.areaStenosisPercent!.toFixed(0)} %`);
    expect(screen.getByTestId('result-lesion-length-value').textContent).toBe(`${results.lesionLengthMm!.toFixed(1)} mm`);
  });

  it('goes to each frame from its button, reachable by keyboard with a name that says which', () => {
    const { results, cursor } = renderBlock();
    for (const [name, frame] of [
      [/^MLA/, results.mla],
      [/^Distal reference/, results.distalReference],
      [/^Proximal reference/, results.proximalReference],
    ] as const) {
      const button = screen.getByRole('button', { name });
      expect(button.tabIndex).toBe(0);
      fireEvent.click(button);
      expect(cursor.getSnapshot().slice).toBe(frame!.slice);
    }
  });

  it('says "assumed" on every mm position and on the lesion length when the pullback speed was assumed', () => {
    renderBlock({ positionAssumed: true });
    for (const id of ['result-mla', 'result-distal-reference', 'result-proximal-reference']) expect(screen.getByTestId(id).textContent).toMatch(/at \d+\.\d mm \(assumed\)/);
    expect(screen.getByTestId('result-lesion-length-value').textContent).toMatch(/mm \(assumed\)$/);
  });

  it('shows dashes and no button where there is no frame to go to', () => {
    renderBlock({ unreadable: Array.from({ length: 120 }, (_, i) => i + 1) });
    expect(screen.queryAllByRole('button')).toHaveLength(0);
    expect(screen.getByTestId('result-mla-figures-value').textContent).toBe('—');
    expect(screen.getByTestId('result-stenosis-value').textContent).toBe('—');
    expect(screen.getByTestId('result-lesion-length-value').textContent).toBe('—');
  });
});

describe('the results block while the borders are provisional (issue 23)', () => {
  it('says the figures are provisional, from how many frames, on the block and on the MLA, and the MLA still goes to its frame', () => {
    const provisional = {
      status: 'provisional' as const,
      version: 'v1',
      frameCount: 120,
      detectedFrames: 2,
      slices: [
        { slice: 10, areaMm2: 6, minDiameterMm: 2.7, maxDiameterMm: 2.9 },
        { slice: 70, areaMm2: 3.5, minDiameterMm: 2, maxDiameterMm: 2.2 },
      ],
      mla: { slice: 70, areaMm2: 3.5 },
      references: { proximal: null, distal: { slice: 10, areaMm2: 6 } },
      stenosisPercent: 41.67,
    };
    const cursor = new SliceCursor(imageStoreFor({ bmodeCount: 120 }));
    renderApp(<ResultsBlock result={provisionalAnalysis(provisional, 60)} cursor={cursor} positionAssumed={false} provisional={provisional} />);
    expect(screen.getByTestId('results-provisional').textContent).toBe('Provisional: from 2 of 120 frames, refining…');
    const mla = screen.getByTestId('result-mla');
    expect(mla.dataset.provisional).toBe('true');
    expect(mla.textContent).toBe('MLA (provisional)3.50 mm²MLD 2.00 mmat 1.2 mm · slice 70');
    fireEvent.click(mla);
    expect(cursor.getSnapshot().slice).toBe(70);
  });

  it('has no provisional label on the final figures', () => {
    renderBlock();
    expect(screen.queryByTestId('results-provisional')).toBeNull();
    expect(screen.getByTestId('result-mla').dataset.provisional).toBeUndefined();
  });
});
