/**
 * The SQL twin of src/domain/search-text.ts: `column` decomposed (NFKD), its combining diacritics
 * dropped, the letters without a decomposition spelled out, then lower-cased. Every function in it
 * is immutable in PostgreSQL (and PGlite), so it can define a generated column. Built from the same
 * letter list as the domain's, so the two cannot drift apart.
 */
import { LETTERS_WITHOUT_DECOMPOSITION } from '../../domain/search-text.ts';

/** A string literal for SQL: letters and quotes only ever come from the list above. */
function literal(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}

export function foldedForSearch(column: string): string {
  let expression = `regexp_replace(normalize(${column}, NFKD), '[\\u0300-\\u036f]', '', 'g')`;
  for (const [letter, spelled] of LETTERS_WITHOUT_DECOMPOSITION) expression = `replace(${expression}, ${literal(letter)}, ${literal(spelled)})`;
  return `lower(${expression})`;
}
