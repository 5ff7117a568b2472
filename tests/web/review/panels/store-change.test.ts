import { describe, expect, it } from 'vitest';
import type { ImageStoreSnapshot } from '../../../../src/web/review/frames/image-store.ts';
import { storeChangeFor } from '../../../../src/web/review/panels/panel-controller.ts';

const drawn: ImageStoreSnapshot = {
  slice: 40,
  sliceCount: 3600,
  bmodeLoaded: 160,
  angioLoaded: 16,
  bmodeCount: 3600,
  angioCount: 40,
  downloading: true,
  playCounter: 0,
  dataVersion: 12,
};
const chunkArrived = { ...drawn, bmodeLoaded: 176, dataVersion: 13 };

describe('what a panel does when the image store changes', () => {
  it.each([
    ['the play counter or the downloading flag changed', 'bmode', { ...drawn, playCounter: 3, downloading: false }, true, 'none'],
    ['a chunk for other slices arrived (B-mode)', 'bmode', chunkArrived, true, 'same-image'],
    ['a chunk for other slices arrived (angio)', 'angio', chunkArrived, true, 'same-image'],
    ["the current slice's frame arrived", 'bmode', chunkArrived, false, 'redraw'],
    ['the slice moved within one angio frame', 'angio', { ...drawn, slice: 41 }, true, 'same-image'],
    ['the slice moved to another B-mode frame', 'bmode', { ...drawn, slice: 41 }, false, 'redraw'],
    ['the slice moved on the L-mode image', 'lmode', { ...drawn, slice: 41 }, true, 'same-image'],
    ['B-mode frames arrived: the L-mode samples their columns (progress)', 'lmode', chunkArrived, true, 'progress'],
    ['only angio frames arrived: the L-mode has nothing to add', 'lmode', { ...drawn, angioLoaded: 32, dataVersion: 13 }, true, 'same-image'],
    ['another record (slice count) was loaded', 'bmode', { ...drawn, sliceCount: 300 }, true, 'redraw'],
  ] as const)('%s: %s', (_, kind, next, sameImage, expected) => {
    expect(storeChangeFor(kind, drawn, next, sameImage)).toBe(expected);
  });

  it('draws when nothing has been drawn yet', () => {
    expect(storeChangeFor('bmode', null, drawn, true)).toBe('redraw');
  });
});
