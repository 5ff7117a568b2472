/** Rulers: a straight line between two handles, measured as its length in mm. */
import { formatMeasurement, rulerLengthMm } from '../measurements.ts';
import type { AnnotationKind, AnnotationOf } from './annotation-kind.ts';
import { distanceToSegment } from './geometry.ts';

type Ruler = AnnotationOf<'ruler'>;

const start = (ruler: Ruler) => ({ x: ruler.startX, y: ruler.startY });
const end = (ruler: Ruler) => ({ x: ruler.endX, y: ruler.endY });

export const rulerKind: AnnotationKind<Ruler> = {
  measure: (ruler, pixelSpacingMm) => formatMeasurement('ruler', rulerLengthMm(ruler, pixelSpacingMm)),
  handles: (ruler) => [
    { handle: 'start', point: start(ruler) },
    { handle: 'end', point: end(ruler) },
  ],
  distance: (ruler, p) => distanceToSegment(p, start(ruler), end(ruler)),
  translate: (ruler, dx, dy) => ({ ...ruler, startX: ruler.startX + dx, startY: ruler.startY + dy, endX: ruler.endX + dx, endY: ruler.endY + dy }),
  moveHandle: (ruler, handle, to) => {
    if (handle === 'start') return { ...ruler, startX: to.x, startY: to.y };
    if (handle === 'end') return { ...ruler, endX: to.x, endY: to.y };
    return ruler;
  },
  // The card sits beside the right-hand end, clear of the line.
  anchor: (ruler) => (ruler.endX >= ruler.startX ? end(ruler) : start(ruler)),
};
