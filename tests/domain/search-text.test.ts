import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_WORDS, searchWords, stripAccents } from '../../src/domain/search-text.ts';

describe('search words', () => {
  it('splits on spaces, commas and the DICOM name separator, and drops accents', () => {
    expect(searchWords('  Brown,Tomasz ')).toEqual(['Brown', 'Tomasz']);
    expect(searchWords('MÜLLER^Jürgen')).toEqual(['MULLER', 'Jurgen']);
    expect(searchWords('Żółć Straße Øre')).toEqual(['Zolc', 'Strasse', 'Ore']);
    expect(searchWords('')).toEqual([]);
  });

  it('reads a decomposed name as its composed form', () => {
    expect(stripAccents('Mu\u0308ller')).toBe(stripAccents('Müller'));
  });

  it('keeps scripts without Latin accents whole, and caps the number of words', () => {
    expect(searchWords('王 小明')).toEqual(['王', '小明']);
    expect(searchWords('a b c d e f g h i j k')).toHaveLength(MAX_SEARCH_WORDS);
  });
});
