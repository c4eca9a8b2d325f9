/**
 * Normalisation for the EXACT recognition tier: case, spacing, apostrophe and
 * quote-mark styles and end punctuation do not make a new memory
 * ("I take the 7:15 train to work." = "i take the 7:15  train to work").
 */
export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2018\u2019\u201B\u2032\u02BC`´]/g, "'")
    .replace(/[\u201C\u201D\u201E\u2033«»]/g, '"')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^["']+(?=\S)|(?<=\S)["']+$/g, '')
    .replace(/[\s.!?…;:,]+$/u, '')
    .replace(/\s+([,;:])/g, '$1')
    .trim();
}

/** Whitespace and invisible format characters (zero-width space, joiners, BOM, direction marks: `\p{Cf}`) at either end. */
const INVISIBLE_ENDS = /^[\s\p{Cf}]+|[\s\p{Cf}]+$/gu;

/**
 * A name, entity, theme or tag as kept: without whitespace or invisible format characters at
 * either end (inside, a zero-width joiner still joins an emoji sequence). Empty when nothing
 * visible was given (`"\u200b"`, `" "`): such a value names nothing.
 */
export function trimInvisible(text: string): string {
  return text.replace(INVISIBLE_ENDS, '');
}
