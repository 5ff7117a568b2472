/**
 * The calcium band's colours by arc (issue 28): warmer as the arc grows, the last one the score's
 * > 270° arc. Apart from the yellow of annotations and the cursor, and from the lumen and vessel borders.
 */
export const CALCIUM_ARC_BANDS = [
  { upToDeg: 90, color: '#FFB224', label: '≤ 90°' },
  { upToDeg: 180, color: '#F76808', label: '90–180°' },
  { upToDeg: 270, color: '#E5484D', label: '180–270°' },
  { upToDeg: 360, color: '#D6409F', label: '> 270°' },
] as const;

/** The band colour of an arc (> 0). */
export function calciumArcColor(arcDeg: number): string {
  return (CALCIUM_ARC_BANDS.find((band) => arcDeg <= band.upToDeg) ?? CALCIUM_ARC_BANDS[3]).color;
}
