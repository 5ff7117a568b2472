/**
 * Issue 26: the results block: MLA with MLD, both references with areas and diameters, stenosis and
 * lesion length, placed in mm; each frame a button that goes to it.
 */
import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyManifest } from '../../../../src/domain/annotations/manifest.ts';
import { correctedAnalysis } from '../../../../src/domain/contours/corrected-analysis.ts';
import { lesionResults } from '../../../../src/domain/contours/lesion-results.ts';
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
