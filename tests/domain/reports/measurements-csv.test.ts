import { describe, expect, it } from 'vitest';
import { newRuler, newText } from '../../../src/domain/annotations/drag.ts';
import { addAnnotation } from '../../../src/domain/annotations/edits.ts';
import { emptyManifest } from '../../../src/domain/annotations/manifest.ts';
import { MEASUREMENTS_CSV_HEADER, pullbackExportCsv, textCell, userMeasurementsCsv } from '../../../src/domain/reports/measurements-csv.ts';

const FIGURES = { pixelSpacingMm: 0.02, frameRateHz: 30, pullbackSpeedMmPerS: 0.5 };

describe("the clinician's measurements in the CSV", () => {
  it('gives one row per measurement with its slice, position, value and unit, by slice', () => {
    let manifest = emptyManifest();
    manifest = addAnnotation(manifest, newRuler(manifest, 61, { x: 0, y: 0 }, { x: 150, y: 0 }));
    const note = newText(manifest, 7, { x: 10, y: 10 });
    manifest = addAnnotation(manifest, { ...note, text: 'Calcium, "arc" 180°\n=check' });
    const lines = userMeasurementsCsv(manifest, FIGURES).split('\r\n');
    expect(lines[0]).toBe(MEASUREMENTS_CSV_HEADER.join(','));
    // The note (slice 7) first: 6 frames at 30 frames/s and 0.5 mm/s is 0.1 mm.
    expect(lines[1]).toBe(`${note.label},7,0.100,note,,,"Calcium, ""arc"" 180°\n=check"`);
    // 150 px at 0.02 mm/px is a 3 mm ruler, at slice 61 (60 frames: 2 s at 0.5 mm/s, 1 mm).
    expect(lines[2]).toMatch(/^[A-Z],61,1\.000,length,3\.00,mm,$/);
    expect(lines).toHaveLength(4);
  });

  it('keeps text a spreadsheet would run as a formula as text', () => {
    expect(textCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(textCell('-1')).toBe(`"'-1"`);
    expect(textCell('plain')).toBe('"plain"');
  });

  it('follows the per-slice table after an empty line, and has only its header without measurements', () => {
    const csv = pullbackExportCsv('slice,area\r\n1,5.00\r\n', emptyManifest(), FIGURES);
    expect(csv).toBe(`slice,area\r\n1,5.00\r\n\r\n${MEASUREMENTS_CSV_HEADER.join(',')}\r\n`);
  });
});
