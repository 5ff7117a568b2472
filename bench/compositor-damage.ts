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

/**
 * Per display frame: its damage rectangle and the quads SkiaRenderer drew for it, counted by kind,
 * as "rect | TileDrawQuad=15 TextureQuad=3 … ×frames". The same quads for every damage means the
 * whole frame is drawn again each time (no partial swap), whatever changed.
 */
export function quadsByDamage(events: TraceEvent[]): string[] {
  const passes = events.filter((e) => e.name === 'SkiaRenderer::BeginDrawingRenderPass').map((e) => e.ts).sort((a, b) => a - b);
  const damages = events.flatMap((e) => {
    const rect = (e.args as { root_damage_rect?: string } | undefined)?.root_damage_rect;
    return rect ? [{ ts: e.ts, rect }] : [];
  }).sort((a, b) => a.ts - b.ts);
  const draws = events.filter((e) => e.ph === 'X' && /^SkiaRenderer::Draw\w+Quad$/.test(e.name));
  const rows = new Map<string, number>();
  passes.forEach((start, i) => {
    const end = passes[i + 1] ?? Infinity;
    const rect = damages.filter((d) => d.ts <= start).at(-1)?.rect ?? '?';
    const kinds = new Map<string, number>();
    for (const draw of draws) if (draw.ts >= start && draw.ts < end) kinds.set(draw.name.slice('SkiaRenderer::Draw'.length), (kinds.get(draw.name.slice('SkiaRenderer::Draw'.length)) ?? 0) + 1);
    const key = `${rect} | ${[...kinds].map(([kind, n]) => `${kind}=${n}`).join(' ')}`;
    rows.set(key, (rows.get(key) ?? 0) + 1);
  });
  return [...rows].sort((a, b) => b[1] - a[1]).map(([key, n]) => `${key} ×${n}`);
}
