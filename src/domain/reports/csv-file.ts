/**
 * A CSV as the file a user downloads: UTF-8 (how a Blob encodes a string) behind a byte order mark,
 * without which spreadsheet programs read the file in the system's legacy code page and mangle
 * names ("Kowalski, Łukasz"), notes ("≥") and units.
 */
export function csvFileText(csv: string): string {
  return `\uFEFF${csv}`;
}
