/**
 * How a search of the patient list reads names: in any word order and without accents, so that
 * "tomasz brown" finds "Brown^Tomasz" and "muller" or "müller" finds "Müller" and "MULLER". Pure.
 *
 * The database keeps each name folded the same way in a generated column (`patients.name_search`,
 * migration 0010): decomposed (NFKD), its combining diacritics (U+0300–U+036F) dropped, the few
 * Latin letters that have no decomposition spelled out, then lower-cased. The search words are
 * folded here up to the lower-casing, which the database does to both sides with the same
 * lower(): whatever the database's character type, both sides then agree (a test checks this on
 * both engines).
 */

/** Combining diacritical marks: what NFKD splits off an accented Latin, Greek or Cyrillic letter. */
const COMBINING_DIACRITICS = /[\u0300-\u036f]/g;

/** Letters NFKD leaves whole, and what a reader typing without them would type. */
export const LETTERS_WITHOUT_DECOMPOSITION: readonly (readonly [string, string])[] = [
  ['ß', 'ss'],
  ['æ', 'ae'],
  ['Æ', 'AE'],
  ['œ', 'oe'],
  ['Œ', 'OE'],
  ['ł', 'l'],
  ['Ł', 'L'],
  ['ø', 'o'],
  ['Ø', 'O'],
  ['đ', 'd'],
  ['Đ', 'D'],
  ['ı', 'i'],
  ['þ', 'th'],
  ['Þ', 'TH'],
];

/** `text` without accents, as the database's `name_search` holds a name before lower-casing. */
export function stripAccents(text: string): string {
  let folded = text.normalize('NFKD').replace(COMBINING_DIACRITICS, '');
  for (const [letter, spelled] of LETTERS_WITHOUT_DECOMPOSITION) folded = folded.replaceAll(letter, spelled);
  return folded;
}

/** At most this many words are matched; a longer search is cut (the query stays small whatever is typed). */
export const MAX_SEARCH_WORDS = 8;

/**
 * The words of a search, accents stripped: every one must occur in the name or the patient ID.
 * Spaces, commas and DICOM's name separator (^) part words, so "Brown, Tomasz" is two words.
 */
export function searchWords(search: string): string[] {
  return stripAccents(search)
    .split(/[\s,^]+/u)
    .filter((word) => word.length > 0)
    .slice(0, MAX_SEARCH_WORDS);
}
