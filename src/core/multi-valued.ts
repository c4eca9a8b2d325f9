/**
 * Multi-valued predicates: what a person can have many objects of ("I speak French." / "I speak
 * Spanish." are two facts), read from a statement's verb and its object. See docs/corrections.md,
 * "multi-valued".
 */
import { lemma, STOP_WORDS } from './words.js';
import { numberWord } from './values.js';
import { MEASURE_UNITS } from './value-words.js';
import { memoByText, shared } from './memo.js';
import { clauses, FILLER, isVerb, key, norm, subset, toks } from './conflict-words.js';

/** Predicates a person can have many objects of: I speak French AND Spanish. */
export const MULTI = new Set(
  (
    'speak play like love enjoy hate dislike take visit eat drink read watch listen collect learn study practice practise own allerg ' +
    'afraid scared fear call pay buy send book email text meet see cook bake make write clean fix water walk feed support follow ' +
    'wear teach attend volunteer'
  ).split(' '),
);
export const OBJ_SKIP = new Set('to of the a an my our some his her their your for being'.split(' '));
export const OBJ_STOP = new Set(
  (
    'on in at every each before after when with for from during while because since and but or so usually always often sometimes ' +
    'now today anymore any too also as than over instead rather about around near by if until once twice not no never again more ' +
    'whenever lately recently these days weekly daily'
  ).split(' '),
);

// (a count's unit is the count's too: "50mg of sertraline" / "fifty milligrams of sertraline" take one thing)
const numeric = (w: string) => /^[£$€]?\d/.test(w) || numberWord(w) !== null || /^(?:hundred|thousand|million|billion)$/.test(w) || MEASURE_UNITS.test(w);

/** For each multi-valued predicate in a text, the keys of its object ("I play tennis on Tuesdays" -> play: {tennis}); read once per text. */
export const objects: (text: string) => ReadonlyMap<string, ReadonlySet<string>> = memoByText(objectsOnce, shared);

function objectsOnce(text: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  // the verb itself must match: "can't stand X" and "hate Y" are not compared (X and Y may be one thing by two names)
  for (const c of clauses(norm(text))) {
    for (let i = 0; i < c.length; i++) {
      const p = key(c[i]);
      const pred = MULTI.has(p) ? p : MULTI.has(lemma(c[i])) ? lemma(c[i]) : null;
      // "my email is", "a walk": the word is a noun here, not the predicate
      if (!pred || out.has(pred) || /^(my|our|your|the|a|an|his|her|their)$/.test(c[i - 1] ?? '')) continue;
      let j = i + 1;
      while (j < c.length && OBJ_SKIP.has(c[j])) j++;
      const obj = new Set<string>();
      // a count in the object is a value, compared as one ("10,000 steps" / "ten thousand steps"): the object is what is counted
      for (; j < c.length && !OBJ_STOP.has(c[j]); j++) if (!STOP_WORDS.has(c[j]) && !FILLER.has(c[j]) && !numeric(c[j])) obj.add(key(c[j]));
      if (obj.size > 0) out.set(pred, obj);
      break;
    }
  }
  return out;
}

export function differentObject(oldText: string, newText: string): string | null {
  const a = objects(oldText);
  const b = objects(newText);
  for (const [pred, oa] of a) {
    const ob = b.get(pred);
    if (!ob) continue;
    if (!subset(oa, ob) && !subset(ob, oa)) return `${pred}: ${[...oa].join(' ')} / ${[...ob].join(' ')}`;
  }
  return null;
}

/**
 * A substitution counts only for a noun said right before the head word both
 * sides share ("a soccer ball" / "a tennis ball"): a swapped verb, adverb or
 * adjective is too often a paraphrase (devour/eat, carefully/cautiously, big/huge).
 */
export function attributive(oldText: string, newText: string, sub: string): boolean {
  const [x, y] = sub.split(' -> ');
  const at = (text: string, k: string) => {
    const ts = toks(text).filter((w) => w !== "'s");
    const i = ts.findIndex((w) => key(w) === k);
    return i < 0 ? null : { w: ts[i]!, next: ts[i + 1] };
  };
  const a = at(oldText, x!);
  const b = at(newText, y!);
  if (!a || !b || !a.next || a.next !== b.next || STOP_WORDS.has(a.next)) return false;
  const nounish = (w: string) => !/(?:ing|ed|ly|y|ful|ous|ive|al|ic|ish|less|able|en)$/.test(w) && lemma(w) === w && !isVerb(w);
  return nounish(a.w) && nounish(b.w);
}
