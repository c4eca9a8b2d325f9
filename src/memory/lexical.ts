import { words, STOP_WORDS, NEGATIONS, wordKey } from '../core/words.js';

/** Word keys of every content word (numbers included), space-joined, for the lexical index. */
export function lexicalText(parts: Array<string | null | undefined>): string {
  return parts
    .filter((p): p is string => !!p)
    .flatMap((p) => lexicalKeys(p))
    .join(' ');
}

/** Keys a text contributes or asks for: content words (not stop words, not negations) as word keys, split to [a-z0-9]. */
export function lexicalKeys(text: string): string[] {
  return words(text)
    .filter((w) => !STOP_WORDS.has(w) && !NEGATIONS.has(w))
    .map((w) => wordKey(w))
    .flatMap((k) => k.split(/[^\p{L}\p{N}]+/u))
    .filter((k) => k.length > 0);
}
