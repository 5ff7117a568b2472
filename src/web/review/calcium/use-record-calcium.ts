import { useMemo } from 'react';
import { calciumCsv } from '../../../domain/calcium/calcium-csv.ts';
import { recordCalcium, type RecordCalcium } from '../../../domain/calcium/record-calcium.ts';
import type { CorrectedAnalysis } from '../../../domain/contours/corrected-analysis.ts';
import type { RecordContours } from '../../../domain/contours/api.ts';

/**
 * The record's calcium (issue 28), once its contours are ready: the score on the analysis's own mm
 * positions, and the calcified slices whose border the clinician corrected (manual or propagated).
 */
export function useRecordCalcium(contours: RecordContours | null, result: CorrectedAnalysis | null): RecordCalcium | null {
  return useMemo(() => {
    if (contours === null || result === null) return null;
    const slices = result.slices;
    const mmPerSlice = slices.length > 1 ? slices[1]!.positionMm - slices[0]!.positionMm : 0;
    return recordCalcium(contours, mmPerSlice, (slice) => {
      const source = slices[slice - 1]?.source;
      return source === 'manual' || source === 'propagated';
    });
  }, [contours, result]);
}

/** The calcium tables appended to the pullback CSV (after an empty line), or nothing before the contours are ready. */
export function calciumExportCsv(calcium: RecordCalcium | null, result: CorrectedAnalysis): string {
  if (calcium === null) return '';
  const slices = result.slices;
  const mmPerSlice = slices.length > 1 ? slices[1]!.positionMm - slices[0]!.positionMm : 0;
  return `\r\n${calciumCsv(calcium, mmPerSlice)}`;
}
