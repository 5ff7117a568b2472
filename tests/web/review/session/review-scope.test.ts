import { describe, expect, it, vi } from 'vitest';
import { OTHER_ULTRASOUND_LABEL } from '../../../../src/domain/records.ts';
import { reviewScope } from '../../../../src/web/review/session/review-scope.ts';
import { ReviewSession } from '../../../../src/web/review/session/review-session.ts';
import type { ToastService } from '../../../../src/web/ui/toast.tsx';
import { quietApi } from './session-fixture.tsx';

describe('reviewScope: only IVUS is analysed as IVUS (issue 26)', () => {
  it('analyses an IVUS record, and one whose kind is not said (records from before the kind)', () => {
    for (const record of [{ imagingKind: 'ivus' as const }, {}, null]) {
      expect(reviewScope(record)).toMatchObject({ analysed: true, label: null });
      expect(reviewScope(record).tools).toContain('contour');
    }
  });

  it('offers other ultrasound to view and measure by hand only, and names it', () => {
    const scope = reviewScope({ imagingKind: 'other-ultrasound' });
    expect(scope).toEqual({ analysed: false, label: OTHER_ULTRASOUND_LABEL, tools: ['ruler', 'area', 'text', 'angle', 'brightness'] });
  });
});

describe('the review session follows the record it is told of', () => {
  function session() {
    const toast: ToastService = { show: vi.fn(() => 'toast'), close: vi.fn() };
    return new ReviewSession({ patientId: 'P-1', recordId: 'R-1', api: quietApi(), toast, confirm: vi.fn(async () => true) });
  }

  it('puts the contour tool down and tells its listeners when the record turns out to be other ultrasound', () => {
    const review = session();
    review.tools.set('contour');
    const told = vi.fn();
    review.subscribeScope(told);
    review.setRecord({ annotation: null });
    expect(told).not.toHaveBeenCalled();
    review.setRecord({ annotation: null, imagingKind: 'other-ultrasound' });
    expect(told).toHaveBeenCalledTimes(1);
    expect(review.scope().analysed).toBe(false);
    expect(review.tools.get()).toBeNull();
  });

  it('keeps a measuring tool in hand on other ultrasound', () => {
    const review = session();
    review.tools.set('ruler');
    review.setRecord({ imagingKind: 'other-ultrasound' });
    expect(review.tools.get()).toBe('ruler');
  });
});
