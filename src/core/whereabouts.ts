/**
 * Where a thing is: a physical object is in one place at a time. "The spare key is under the
 * blue flowerpot." / "The spare key is under the doormat." gives the key a new place: a
 * correction, though neither place is a value (docs/corrections.md, "new-value", "a thing's place").
 *
 * Read only where all of these hold, so that it says nothing of other sentences:
 * - a clause opens with a definite subject ("the", "my", "our" + its words) and a present form
 *   of "be" ("is", "are"), then at most a few adverbs or a participle of keeping ("kept",
 *   "stored", "hidden", "parked"), then a preposition of place;
 * - the subject's head noun is, in its most frequent WordNet sense, an artifact (a key, a
 *   passport, a car): a person "in a band" or a meeting "at 3" says no place of a thing;
 * - the place names no value (no digit): values have their own rule;
 * - the place's head is no abstract noun: in its most frequent WordNet sense it is no act,
 *   state, possession, ... ("on sale", "in use", "on loan", "in storage" say how a thing is,
 *   not where). A word WordNet does not know (a place's name) may be a place.
 * The place's head is its last content word; two places disagree when their heads differ and
 * are not WordNet synonyms, and neither side names the other's head.
 */
import { lemma, STOP_WORDS } from './words.js';
import { lexicon } from './lexicon.js';
import { addNp, definiteSubject } from './slots.js';
import { clauses, FILLER, key, stripOpeners } from './conflict-words.js';

const BE = new Set(['is', 'are']);
const BETWEEN = new Set(['now', 'still', 'currently', 'usually', 'always', 'normally', 'kept', 'stored', 'hidden', 'parked', 'left', 'locked', 'safely']);
const PLACE_PREPS = new Set(['in', 'inside', 'under', 'underneath', 'beneath', 'behind', 'beside', 'on', 'at', 'next', 'above', 'below', 'near']);
/** Where a place phrase ends: a word that starts another part of the clause. */
const PLACE_END = new Set(['and', 'but', 'or', 'so', 'because', 'since', 'when', 'while', 'if', 'until', 'for', 'with', 'now', 'again', 'anymore', 'too', 'also']);

/** WordNet noun files of what is not a place (the first sense decides). */
const NOT_PLACES = new Set(['act', 'state', 'attribute', 'possession', 'event', 'feeling', 'cognition', 'time', 'process', 'phenomenon', 'quantity', 'relation', 'motive', 'communication']);

export interface Place { prep: string; words: string[]; head: string }

/** The place each definite subject is said to be in, by the subject's `np:` slot. */
export function placesOf(text: string, names: Set<string>): Map<string, Place> {
  const out = new Map<string, Place>();
  for (const c of clauses(text).map(stripOpeners)) {
    const d = definiteSubject(c);
    if (!d || !BE.has(d.verb)) continue;
    let j = d.at + 1;
    while (j < c.length && BETWEEN.has(c[j]!)) j++;
    const prep = c[j];
    if (!prep || !PLACE_PREPS.has(prep) || (prep === 'next' && c[j + 1] !== 'to')) continue;
    j += prep === 'next' ? 2 : 1;
    const words: string[] = [];
    for (; j < c.length && !PLACE_END.has(c[j]!); j++) if (!STOP_WORDS.has(c[j]!) && !FILLER.has(c[j]!)) words.push(c[j]!);
    if (words.length === 0 || words.some((w) => /\d/.test(w))) continue;
    const subjectHead = d.np[d.np.length - 1]!;
    if (lexicon().nounThemes(lemma(subjectHead))[0] !== 'artifact') continue;
    const head = words[words.length - 1]!;
    if (NOT_PLACES.has(lexicon().nounThemes(lemma(head))[0] ?? '')) continue;
    const slot = new Set<string>();
    addNp(slot, d.np, names, d.owner);
    for (const s of slot) if (!out.has(s)) out.set(s, { prep, words, head });
  }
  return out;
}

/**
 * A thing both statements put in places that disagree (`placesOf`), among the subjects they
 * share (`slots`): a description for the event log, or null.
 */
export function movedThing(oldText: string, newText: string, names: Set<string>, shared: string[]): string | null {
  if (shared.length === 0) return null;
  const a = placesOf(oldText, names);
  if (a.size === 0) return null;
  const b = placesOf(newText, names);
  for (const s of shared) {
    const x = a.get(s);
    const y = b.get(s);
    if (!x || !y) continue;
    const [hx, hy] = [key(x.head), key(y.head)];
    if (hx === hy || lexicon().synonymous(lemma(x.head), lemma(y.head))) continue;
    if (y.words.some((w) => key(w) === hx) || x.words.some((w) => key(w) === hy)) continue;
    return `place of ${s.slice(3)}: ${x.prep} ${x.words.join(' ')} -> ${y.prep} ${y.words.join(' ')}`;
  }
  return null;
}
