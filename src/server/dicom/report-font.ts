/**
 * The Unicode font the server's report PDF (the Encapsulated PDF of "Send to PACS") is set in:
 * DejaVu Sans from the dejavu-fonts-ttf package the product ships, the same file the browser's
 * report download fetches (web/review/contours/report-pdf.ts). Read once, on the first report.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';

const FONT_FILE = 'dejavu-fonts-ttf/ttf/DejaVuSans.ttf';

let font: Promise<Uint8Array> | null = null;

export function reportFont(): Promise<Uint8Array> {
  font ??= fs.readFile(createRequire(import.meta.url).resolve(FONT_FILE)).then((bytes) => new Uint8Array(bytes));
  // A failed read is tried again on the next report rather than remembered.
  font.catch(() => (font = null));
  return font;
}
