import { describe, expect, it } from 'vitest';
import { DRAG_THRESHOLD_PX, newArea, newRuler, passedDragThreshold, withFreshIdentity } from '../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';

describe('drag threshold', () => {
  it('is a few screen pixels, and only a pointer beyond it drags', () => {
    expect(DRAG_THRESHOLD_PX).toBeGreaterThanOrEqual(2);
    expect(DRAG_THRESHOLD_PX).toBeLessThanOrEqual(8);
    expect(passedDragThreshold({ x: 0, y: 0 }, { x: 3, y: 4 }, 5)).toBe(false);
    expect(passedDragThreshold({ x: 0, y: 0 }, { x: 3, y: 4.1 }, 5)).toBe(true);
  });
});

describe('withFreshIdentity', () => {
  const square = [
    { x: 0, y: 0 },
    { x: 10, y: 0 },
    { x: 10, y: 10 },
    { x: 0, y: 10 },
  ];

  it('keeps the identity of an annotation whose label is free', () => {
    const ruler = newRuler(emptyManifest(), 1, { x: 0, y: 0 }, { x: 1, y: 0 });
    expect(withFreshIdentity(emptyManifest(), ruler)).toBe(ruler);
  });

  it('gives the next label of the slice when undo or redo brought its label back', () => {
    const draft = newArea(emptyManifest(), 3, square);
    const redone = addAnnotation(emptyManifest(), newRuler(emptyManifest(), 3, { x: 0, y: 0 }, { x: 1, y: 0 }));
    const added = withFreshIdentity(redone, draft);
    expect(draft.label).toBe('A');
    expect(added).toMatchObject({ label: 'B', id: `3-area-B-${added.color}`, controlPoints: draft.controlPoints });
    expect(() => addAnnotation(redone, added)).not.toThrow();
  });

  it('re-allocates a draft whose very id was taken meanwhile', () => {
    const draft = newRuler(emptyManifest(), 2, { x: 0, y: 0 }, { x: 5, y: 0 });
    const manifest = addAnnotation(emptyManifest(), draft);
    expect(withFreshIdentity(manifest, draft).id).not.toBe(draft.id);
  });
});
