import { describe, expect, it } from 'vitest';
import { formatDate } from '../../../src/domain/reports/format-date.ts';

describe('dates as mm/dd/yy', () => {
  it('shows a calendar date as that day', () => {
    expect(formatDate('1961-04-09')).toBe('04/09/61');
    expect(formatDate('2024-01-01')).toBe('01/01/24');
  });

  it('shows a timestamp in the local day', () => {
    const local = new Date(2023, 10, 5, 14, 30);
    expect(formatDate(local.toISOString())).toBe('11/05/23');
  });

  it('shows nothing for a missing or unreadable value', () => {
    expect(formatDate(null)).toBe('');
    expect(formatDate('not a date')).toBe('');
  });
});
