import { describe, expect, it } from 'vitest';
import { cutLineInImage, cutLineOnScreen } from '../../../../src/web/review/lmode/cut-line.tsx';
import { imageToScreen } from '../../../../src/web/review/view/view-transform.ts';

const frame = { width: 512, height: 400 };

describe('the L-mode cut line the B-mode panel draws with its image', () => {
  it('runs through the frame centre along the cut, as long as the column the L-mode samples', () => {
    const { from, to } = cutLineInImage(frame, 90);
    expect(from.x).toBeCloseTo(256);
    expect(to.x).toBeCloseTo(256);
    expect(to.y - from.y).toBeCloseTo(512);
    expect((from.y + to.y) / 2).toBeCloseTo(200);
  });

  it('turns with the angle', () => {
    const { from, to } = cutLineInImage(frame, 0);
    expect(from.y).toBeCloseTo(200);
    expect(to.y).toBeCloseTo(200);
    expect(to.x - from.x).toBeCloseTo(512);
  });

  it('is where the DOM stand-in and the handle place it on screen, at any zoom and pan', () => {
    const transform = { x: 37, y: -12, scaleX: 1.7, scaleY: 1.7 };
    const image = cutLineInImage(frame, 131);
    const screen = cutLineOnScreen(transform, frame, 131);
    expect(screen.from).toEqual(imageToScreen(transform, image.from));
    expect(screen.to).toEqual(imageToScreen(transform, image.to));
  });
});
