import { LOCALE } from '../constants.ts';

const DATE_FORMAT = new Intl.DateTimeFormat(LOCALE, { month: '2-digit', day: '2-digit', year: '2-digit' });
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * A date as mm/dd/yy (spec locale en-US). A calendar date such as a birth date ('1961-04-09') is
 * read as that day wherever the browser is; parsed as an instant it would be the evening before
 * west of Greenwich. Answers '' for null or an unreadable value.
 */
export function formatDate(value: string | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  let date: Date;
  if (value instanceof Date) {
    date = value;
  } else {
    const calendar = DATE_ONLY.exec(value);
    date = calendar
      ? new Date(Number(calendar[1]), Number(calendar[2]) - 1, Number(calendar[3]))
      : new Date(value);
  }
  return Number.isNaN(date.getTime()) ? '' : DATE_FORMAT.format(date);
}
