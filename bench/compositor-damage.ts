/**
 * What the display compositor redraws per frame, read from a Chromium trace with the
 * disabled-by-default-viz.quads category (issue 27): viz draws one damage rectangle per frame, the
 * bounding box of everything that changed, and on SwiftShader its cost follows the pixels that
 * rectangle's quads cover.
 */
import type { TraceEvent } from './cpu-profile.ts';

export const COMPOSITOR_CATEGORIES = ['toplevel', 'cc', 'viz', 'gpu', 'disabled-by-default-viz.quads', 'disabled-by-default-cc.debug'];

export interface DisplayFrames {
  frames: number;
  /** Median root damage rectangle, e.g. "510,107 1017x793", and its area in pixels. */
  medianDamage: string;
  medianDamageArea: number;
  /** Damage rectangles by how often they were drawn, most frequent first ("rect ×count"). */
  damageCounts: string[];
  /** Quads drawn per frame (median). */
  quadsPerFrame: number;
  /** The GPU main thread's SwapBuffers (where SwiftShader runs the frame's draws), ms per frame. */
  swapMsPerFrame: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

export function displayFrames(events: TraceEvent[]): DisplayFrames {
  const damages: { rect: string; area: number }[] = [];
  for (const event of events) {
    const rect = (event.args as { root_damage_rect?: string } | undefined)?.root_damage_rect;
    const size = rect?.match(/ (\d+)x(\d+)$/);
    if (rect && size) damages.push({ rect, area: Number(size[1]) * Number(size[2]) });
  }
  damages.sort((a, b) => a.area - b.area);
  const passes = events.filter((e) => e.name === 'SkiaRenderer::BeginDrawingRenderPass').map((e) => e.ts).sort((a, b) => a - b);
  const quads = events.filter((e) => e.name === 'SkiaRenderer::DoDrawQuad').map((e) => e.ts);
  const perFrame = passes.map((start, i) => quads.filter((t) => t >= start && t < (passes[i + 1] ?? Infinity)).length);
  const swaps = events.filter((e) => e.name === 'SkiaOutputSurfaceImplOnGpu::SwapBuffers' && e.ph === 'X');
  const middle = damages[Math.floor(damages.length / 2)];
  return {
    frames: damages.length,
    medianDamage: middle?.rect ?? '-',
    damageCounts: [...Map.groupBy(damages, (d) => d.rect)].sort((a, b) => b[1].length - a[1].length).map(([rect, all]) => `${rect} ×${all.length}`),
    medianDamageArea: middle?.area ?? 0,
    quadsPerFrame: median(perFrame),
    swapMsPerFrame: swaps.reduce((sum, e) => sum + (e.dur ?? 0) / 1000, 0) / Math.max(1, swaps.length),
  };
}
