/** The review's tools (spec section 2), in toolbar order, with their keyboard shortcuts. */
export const TOOLS = [
  { id: 'ruler', label: 'Ruler', shortcut: 'R' },
  { id: 'area', label: 'Area', shortcut: 'A' },
  { id: 'text', label: 'Text', shortcut: 'T' },
  { id: 'angle', label: 'Angle', shortcut: 'G' },
  { id: 'brightness', label: 'Brightness', shortcut: 'B' },
  { id: 'contour', label: 'Contour', shortcut: 'C' },
] as const;

export type ToolId = (typeof TOOLS)[number]['id'];

/** Clicking a tool activates it; clicking the active tool again leaves none active. */
export function toggleTool(active: ToolId | null, clicked: ToolId): ToolId | null {
  return active === clicked ? null : clicked;
}
