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

/**
 * Word keys of the possessors a question names ("What is my sister's name?" -> sister,
 * "Where do my parents' friends live?" -> parent): whose thing the question is about.
 * Stop words are not possessors ("what's", "it's", "that's" are "… is").
 */
export function possessorKeys(text: string): string[] {
  const t = text.replace(/[\u2018\u2019\u201B\u2032\u02BC`´]/g, "'");
  const out: string[] = [];
  // A match starts only at a word's start: linear, where an unanchored start retried every letter of a long word.
  for (const m of t.matchAll(/(?<![\p{L}\p{N}])([\p{L}\p{N}]+)(?:'s|s')(?![\p{L}\p{N}])/gu)) {
    const word = m[0].endsWith("s'") ? m[1]! + 's' : m[1]!;
    out.push(...lexicalKeys(word));
  }
  return [...new Set(out)];
}

const OWN = new Set(['my', 'our', 'your']);

/**
 * Word keys of the things the question says are the person's own: the content words
 * right after "my" / "our" / "your" up to the first stop word ("What is my favorite food?"
 * -> favorite, food). No part-of-speech reading: a verb right after the noun is read with
 * it ("Where does my sister live?" -> sister, live).
 */
export function ownPhraseKeys(text: string): string[] {
  // One pass: a word belongs to an own-phrase when an own word came before it with no stop word
  // in between (same result as reading on from every own word, without the quadratic rescans).
  const out = new Set<string>();
  let inPhrase = false;
  for (const w of words(text)) {
    if (STOP_WORDS.has(w) || NEGATIONS.has(w)) inPhrase = false;
    else if (inPhrase) for (const k of lexicalKeys(w)) out.add(k);
    if (OWN.has(w)) inPhrase = true;
  }
  return [...out];
}
