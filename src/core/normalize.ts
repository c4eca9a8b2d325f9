/**
 * Normalisation for the EXACT recognition tier: case, spacing, apostrophe and
 * quote-mark styles and end punctuation do not make a new memory
 * ("I take the 7:15 train to work." = "i take the 7:15  train to work").
 */
import { INVISIBLE_FORMAT } from './sentences.js';

export function normalizeText(text: string): string {
  return text
    .normalize('NFKC')
    // invisible format characters inside words ("Jo\u200Bhn" is "John")
    .replace(INVISIBLE_FORMAT, '')
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

/**
 * Whitespace and invisible characters at either end: format characters (zero-width space,
 * joiners, BOM, direction marks: `\p{Cf}`), the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0:
 * letters that show nothing) and the Braille blank (U+2800).
 */
const INVISIBLE_ENDS = /^[\s\p{Cf}\u115F\u1160\u3164\uFFA0\u2800]+|[\s\p{Cf}\u115F\u1160\u3164\uFFA0\u2800]+$/gu;

/**
 * A character that shows something: not whitespace, not a character Unicode says to ignore
 * when it cannot be shown (`Default_Ignorable_Code_Point`: format characters, the Hangul fillers,
 * variation selectors), not the Braille blank, not a combining mark (a mark shows only on a
 * letter before it).
 */
const VISIBLE = /[^\s\p{Default_Ignorable_Code_Point}\p{Cf}\p{M}\u2800]/u;

/**
 * Whether a text shows nothing: made only of whitespace and invisible characters, or of marks
 * with no letter to sit on ("\u3164" and "\u2800" look blank and were kept as messages and as a
 * memory that each other reinforced; found by a probe).
 */
export function showsNothing(text: string): boolean {
  return !VISIBLE.test(text);
}

/**
 * A name, entity, theme or tag as kept: without whitespace or invisible format characters at
 * either end (inside, a zero-width joiner still joins an emoji sequence). Empty when nothing
 * visible was given (`"\u200b"`, `" "`): such a value names nothing.
 */
export function trimInvisible(text: string): string {
  return text.replace(INVISIBLE_ENDS, '');
}
