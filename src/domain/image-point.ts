/**
 * A point in image pixel coordinates: x to the right, y down, (0, 0) the top-left corner of the
 * top-left pixel, so pixel (col, row) covers [col, col + 1) x [row, row + 1) and its centre is
 * (col + 0.5, row + 0.5). Branded so that millimetres or screen points cannot be passed by mistake.
 */
declare const imageSpace: unique symbol;
export type ImagePoint = { readonly x: number; readonly y: number; readonly [imageSpace]: true };

export function imagePoint(x: number, y: number): ImagePoint {
  return { x, y } as ImagePoint;
}
