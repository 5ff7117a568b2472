/**
 * Limits on what one uploaded file may make the server do, checked while its header is read and
 * before anything is decoded: a file over a budget is refused at once (413 over_budget), so a
 * hostile or absurd header never reaches the decoders, the store or the browser.
 */
import type { DataSet } from 'dicom-parser';
import { rejectFile } from '../../domain/import-rejection.ts';

export interface ImportBudgets {
  /**
   * Bytes of decoded 8-bit frames one file may produce (frames x rows x columns), which is also
   * what a browser holds to review it; also bounds one frame's decoded samples and an inflated
   * (deflated transfer syntax) data set.
   */
  readonly memoryBytes: number;
  /** Data elements in the header, sequences included. */
  readonly maxElements: number;
  /** Items of encapsulated pixel data (each costs a read). */
  readonly maxFragments: number;
}

/** 2 GiB of 8-bit frames: over twice the longest pullback of the demo (3,600 frames of 512 x 512). */
export const DEFAULT_IMPORT_MEMORY_BUDGET_BYTES = 2 * 1024 ** 3;

export const DEFAULT_IMPORT_BUDGETS: ImportBudgets = {
  memoryBytes: DEFAULT_IMPORT_MEMORY_BUDGET_BYTES,
  maxElements: 250_000,
  maxFragments: 1_000_000,
};

export function budgetsWithMemory(memoryBytes: number): ImportBudgets {
  return { ...DEFAULT_IMPORT_BUDGETS, memoryBytes };
}

function formatMiB(bytes: number): string {
  return `${Math.round(bytes / 1024 ** 2).toLocaleString('en-US')} MiB`;
}

/** Counts the header's elements, items of sequences included, stopping once past `limit`. */
export function countElements(dataSet: DataSet, limit: number): number {
  let count = 0;
  const stack: DataSet[] = [dataSet];
  while (stack.length > 0 && count <= limit) {
    const current = stack.pop()!;
    for (const element of Object.values(current.elements)) {
      count++;
      for (const item of element.items ?? []) if (item.dataSet) stack.push(item.dataSet);
    }
  }
  return count;
}

export function checkElementBudget(dataSet: DataSet, budgets: ImportBudgets, fileName: string): void {
  const count = countElements(dataSet, budgets.maxElements);
  if (count > budgets.maxElements) {
    throw rejectFile('over_budget', fileName, `its header holds more than ${budgets.maxElements.toLocaleString('en-US')} data elements.`);
  }
}

/** The decoded frames (8-bit gray) and one frame's decoded samples must fit the memory budget. */
export function checkPixelBudget(
  format: { rows: number; columns: number; samplesPerPixel: number; bitsAllocated: number },
  frameCount: number,
  budgets: ImportBudgets,
  fileName: string,
): void {
  const frameSamplesBytes = format.rows * format.columns * format.samplesPerPixel * Math.ceil(format.bitsAllocated / 8);
  const decodedBytes = frameCount * format.rows * format.columns;
  if (frameSamplesBytes > budgets.memoryBytes || decodedBytes > budgets.memoryBytes) {
    throw rejectFile(
      'over_budget',
      fileName,
      `its ${frameCount.toLocaleString('en-US')} frames of ${format.columns}x${format.rows} need ${formatMiB(Math.max(decodedBytes, frameSamplesBytes))}` +
        ` where this server allows ${formatMiB(budgets.memoryBytes)} per file (IMPORT_MEMORY_BUDGET_BYTES).`,
    );
  }
}
