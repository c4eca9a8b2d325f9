/**
 * Negation said by a prefix (docs/corrections.md, "polarity"): "I am a non-smoker", "John is my
 * ex-husband", "I am unemployed", "I'm unable to drive" say *not* of a word the other statement
 * says ("I am a smoker", "John is my husband", "I am employed", "I'm able to drive"). The polarity
 * rule reads negation words; a prefix hides the negation inside the word, and the tokeniser splits
 * "non-smoker" into "non" + "smoker", which then read as a restatement with one word added.
 *
 * Read pairwise, for the polarity rule only: a word of one statement made of a negating prefix and
 * a word the other statement says is read as "not <that word>". Which prefixes negate:
 * - "non-" and "ex-" written with a hyphen, and "former" before the word: English morphology,
 *   not vocabulary ("ex-" is "former": no longer what the other statement says);
 * - a prefix joined to its word (un-, in-, im-, il-, ir-, dis-, non-) only when WordNet lists the
 *   two words as opposites (unemployed / employed, unable / able, nonsmoker / smoker, dislike /
 *   like): "income" is no negation of "come", nor "important" of "portant".
 * Nothing is read when the other statement says the prefixed word itself.
 */
import { lexicon } from './lexicon.js';
import { lemma } from './words.js';
import { key, toks } from './conflict-words.js';

/** "non-smoker", "ex-husband" (a hyphen, or the non-breaking and plain hyphens U+2010, U+2011), and "former husband", said as "ex-". */
const HYPHENATED = /(?<![\p{L}\p{N}])(non[-\u2010\u2011]|ex[-\u2010\u2011]|former\s+)(\p{L}{3,})/giu;
/** A negating prefix joined to a word of at least four letters. */
const JOINED = /(?<![\p{L}\p{N}\-\u2010\u2011])(un|in|im|il|ir|dis|non)(\p{L}{4,})(?![\p{L}\p{N}])/giu;
/** A text that may hold one of the above (most hold none: the rule then reads nothing). */
const CANDIDATE = /(?<![\p{L}\p{N}])(?:non[-\u2010\u2011]\p{L}|ex[-\u2010\u2011]\p{L}|former\s+\p{L}|(?:un|in|im|il|ir|dis|non)\p{L}{4})/iu;
/**
 * What comes before a word said of the subject: a linking verb ("am", "is", "'re", "became",
 * "feel"), then at most two of an article, a possessive or an adverb: "I am *unemployed*", "John
 * is my *ex-husband*", "I'm a *non-smoker*". A prefixed word elsewhere names another thing: "I met
 * my ex-boss" is no denial of "I met my manager", nor "non-dairy milk" of "dairy milk".
 */
const PREDICATIVE = /(?:\b(?:am|is|are|was|were|be|been|being|become|becomes|became|feel|feels|felt|seem|seems|remain|remains|stay|stays)|['\u2019](?:m|re)|['\u2019]s(?=\s+an?\s))\s+(?:(?:a|an|the|my|his|her|our|their|your|very|really|so|quite|completely|totally|now|still|currently|always|also|just|officially)\s+){0,2}$/i;

/** Both statements as the polarity rule reads them: each prefixed negation of a word the other says, written "not <word>". */
export function prefixNegated(oldText: string, newText: string): [string, string] {
  return [rewrite(oldText, newText), rewrite(newText, oldText)];
}

/** `text` with its prefixed negations of `other`'s words written out; `text` itself (the same string) when it has none. */
function rewrite(text: string, other: string): string {
  if (!CANDIDATE.test(text)) return text;
  let otherKeys: Set<string> | undefined;
  // (the other's words said bare: its own "ex-husband" says no "husband", and is no denial of this one's)
  const says = (w: string) => (otherKeys ??= new Set(toks(other.replace(HYPHENATED, ' ')).map(key))).has(key(w.toLowerCase()));
  const predicative = (t: string, at: number) => PREDICATIVE.test(t.slice(Math.max(0, at - 80), at));
  const hyphens = text.replace(HYPHENATED, (m: string, _prefix: string, word: string, at: number) =>
    (predicative(text, at) && says(word) ? `not ${word}` : m));
  const out = hyphens.replace(JOINED, (m: string, _prefix: string, word: string, at: number) =>
    (predicative(hyphens, at) && !says(m) && says(word) && opposites(m.toLowerCase(), word.toLowerCase()) ? `not ${word}` : m));
  return out === text ? text : out;
}

/** Whether WordNet lists the two words (as lemmas) as opposites, either way. */
function opposites(prefixed: string, word: string): boolean {
  const lex = lexicon();
  const [a, b] = [lemma(prefixed), lemma(word)];
  return lex.opposites(a).includes(b) || lex.opposites(a).includes(word) || lex.opposites(b).includes(a);
}
