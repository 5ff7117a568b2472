/**
 * Text as the report's font can draw it. Names and notes are whatever a clinician or a DICOM file
 * wrote ("Kowalski, Łukasz", "≥ 70 %", Greek, Cyrillic, CJK): the report sets them in an embedded
 * Unicode font, and a character that font lacks is drawn as a visible replacement mark rather
 * than failing the report or vanishing silently; the rest of the text stays as written.
 */

/** U+FFFD, the replacement character, where the font has it; '?' otherwise. */
const REPLACEMENT = 0xfffd;

/** What a character the font lacks is drawn as, given the code points the font covers. */
export function replacementMark(covered: ReadonlySet<number>): string {
  return covered.has(REPLACEMENT) ? String.fromCodePoint(REPLACEMENT) : '?';
}

/**
 * `text` with control characters (a note's line breaks, tabs) and unusual spaces (the narrow
 * no-break space dates are formatted with) as plain spaces, composed (NFC, so a decomposed "Ł"
 * finds its glyph), and every character outside `covered` (lone surrogates included) as the
 * replacement mark.
 */
export function drawableText(text: string, covered: ReadonlySet<number>): string {
  const mark = replacementMark(covered);
  return Array.from(text.normalize('NFC'), (char) => {
    const codePoint = char.codePointAt(0)!;
    if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0) || /^[\p{Zs}\p{Zl}\p{Zp}]$/u.test(char)) return ' ';
    return covered.has(codePoint) ? char : mark;
  }).join('');
}
