/**
 * The report's download in the browser. The report itself is built in src/domain/reports/report-pdf.ts,
 * shared with the server, which stores the same PDF in the PACS.
 */

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
