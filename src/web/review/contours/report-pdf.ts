/**
 * The report's download in the browser. The report itself is built in src/domain/reports/report-pdf.ts,
 * shared with the server, which stores the same PDF in the PACS.
 */
let font: Promise<Uint8Array> | null = null;

/** The Unicode font the report is set in (the server's Encapsulated PDF uses the same file), fetched once. */
export function reportFont(): Promise<Uint8Array> {
  // The font (about 740 KB) is a static asset of its own, not in the app's code: its URL is
  // imported, and the file fetched, only when a report is made.
  font ??= import('dejavu-fonts-ttf/ttf/DejaVuSans.ttf?url').then(async ({ default: url }) => {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`the report's font could not be loaded (HTTP ${response.status})`);
    return new Uint8Array(await response.arrayBuffer());
  });
  // A failed fetch is tried again on the next report rather than remembered.
  font.catch(() => (font = null));
  return font;
}

/** Offers bytes to the user as a file download. */
export function downloadFile(bytes: Uint8Array | string, fileName: string, type: string): void {
  const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click is handled.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
