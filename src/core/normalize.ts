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
