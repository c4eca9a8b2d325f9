/**
 * What a question says beyond its words, for recall's ranking (docs/recall.md, "Cues"):
 *
 * - **its phrases**: two content words said next to each other ("support group", "clothing
 *   store"); a memory saying the same two words side by side says more than one holding them apart;
 * - **a time asked for**: a question opening with the interrogative "when" asks for a date or a
 *   time, and a memory that says one (as wink-nlp's entity recogniser reads it: "yesterday",
 *   "last week", "May 4") can answer it;
 * - **a category never named**: a noun of the question that the person never said ("What are my
 *   hobbies?") asks about a kind of thing; memories of the same WordNet theme (src/core/themes.ts:
 *   "hiking" and "hobby" are both filed under noun.act) may answer it. Only a plural asks for the
 *   members of a kind ("hobbies", "pets"); a singular ("my favorite food") asks for one thing,
 *   which a memory must say. And only a noun the question asks for, after an asking or possessive
 *   determiner ("What sports …", "… my hobbies"): a plural it merely says names no kind it asks about.
 *
 * Pure; the callers decide which nouns were never said (that is a question to the store).
 */
import { deriveNouns, deriveTimes } from './derive.js';
import { categoryTheme, deriveThemes } from './themes.js';
import { lemma, NEGATIONS, STOP_WORDS, wordKey, words } from './words.js';
import { memoByText, shared } from './memo.js';

/** Adjacent content-word pairs of a text, as word keys ("support group" -> "support group"). */
export const phrasePairs: (text: string) => ReadonlySet<string> = memoByText(pairsOf, shared);

function pairsOf(text: string): Set<string> {
  const keys = words(text).map((w) => (STOP_WORDS.has(w) || NEGATIONS.has(w) ? null : wordKey(w)));
  const out = new Set<string>();
  for (let i = 0; i + 1 < keys.length; i++) if (keys[i] && keys[i + 1]) out.add(`${keys[i]} ${keys[i + 1]}`);
  return out;
}

/** The share (0..1) of the question's phrases that the text says side by side. */
export function phraseShare(question: ReadonlySet<string>, text: string): number {
  if (question.size === 0) return 0;
  const said = phrasePairs(text);
  let n = 0;
  for (const p of question) if (said.has(p)) n++;
  return n / question.size;
}

/** Whether the question asks for a time: it opens with the interrogative "when". */
export function asksWhen(question: string): boolean {
  return words(question)[0] === 'when';
}

/** Whether a text says a date or a time. */
export function saysTime(text: string): boolean {
  return deriveTimes(text).length > 0;
}

/**
 * The determiners that ask for a kind or say whose it is: interrogative (what, which, whose, and
 * "how many"), existential (any) and possessive (my, our, your, his, her, their, a name's). A
 * closed class of English, not a list drawn from the data.
 */
const ASKING = new Set(['what', 'which', 'whose', 'any', 'my', 'our', 'your', 'his', 'her', 'their', "'s"]);

/**
 * The words of the phrases the question opens with one of those determiners, up to the next stop
 * word ("What are my favorite foods?" -> favorite, foods; "How many children do I have?" -> children).
 */
function askedWords(question: string): Set<string> {
  const out = new Set<string>();
  let open = false;
  let prev = '';
  for (const w of words(question)) {
    if (ASKING.has(w) || (w === 'many' && prev === 'how')) open = true;
    else if (STOP_WORDS.has(w) || NEGATIONS.has(w)) open = false;
    else if (open) out.add(w);
    prev = w;
  }
  return out;
}

/**
 * The nouns the question asks for, as said (the caller keeps those the person never said): those
 * of a phrase it opens with an asking or possessive determiner ("What sports …", "… my hobbies",
 * "… Melanie's kids", "any pets"). A noun it merely says ("'; drop table memories; --", "Delete
 * the users") names no kind it asks about.
 */
export function questionNouns(question: string): string[] {
  const asked = askedWords(question);
  return deriveNouns(question).filter((n) => asked.has(n));
}

/** Whether a noun, as said, is a plural: its lemma differs ("hobbies" -> "hobby"). */
export function isPlural(noun: string): boolean {
  const w = noun.toLowerCase();
  return lemma(w) !== w;
}

/** The themes the given nouns name as categories (their most frequent WordNet sense's file). */
export function categoryThemes(nouns: readonly string[]): Set<string> {
  return new Set(nouns.map(categoryTheme).filter((t): t is string => t !== null));
}

/** Whether a text speaks of one of the themes. */
export function speaksOf(themes: ReadonlySet<string>, text: string): boolean {
  return themes.size > 0 && deriveThemes(text).some((t) => themes.has(t));
}
