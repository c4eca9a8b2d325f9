/**
 * Opposites: antonyms and converse words / phrases of everyday English
 * (on/off, near/far, empty/full, put on/take off, fold/unfold...), and the
 * word-level comparisons the conflict rules build on them: which words two
 * nearly identical statements swap (`diffHunks`), whether a swap is an
 * opposite (`oppositeSwap`), a plain substitution of one content word for
 * another (`substitution`) or the same words with two phrases exchanged
 * around the verb (`roleSwap`). Words are compared on lemmas, so
 * running/ran/runs meet. See docs/corrections.md (opposite, substitution,
 * role-swap).
 */
import { lemma, wordKey } from './words.js';
import { lexicon } from './lexicon.js';
import { PERSON } from './conflict-words.js';
import { numberWord, ordinalWord } from './value-words.js';

/** A number as said: digits, a number word or an ordinal ("90", "ninety", "ninetieth", "21st"). */
const numeric = (w: string) => /^\d/.test(w) || numberWord(w) !== null || ordinalWord(w) !== null;

/**
 * Prepositions, a closed class WordNet does not hold: a goal and a source ("into" / "out of",
 * "onto" / "off"), the two sides of a time ("before" / "after"), and "with" / "without". Grammar,
 * not vocabulary.
 */
const PREPOSITION_OPPOSITES: ReadonlyArray<[string[], string[]]> = [
  [['with'], ['without']],
  [['into', 'onto', 'to', 'toward', 'towards'], ['out of', 'off', 'from', 'away from', 'off of']],
  [['before'], ['after']],
];
const prepositionOpposites = (pairs: ReadonlyArray<[string[], string[]]>) => {
  const out = new Map<string, string[]>();
  for (const [l, r] of pairs) {
    for (const x of l) out.set(x, [...(out.get(x) ?? []), ...r]);
    for (const x of r) out.set(x, [...(out.get(x) ?? []), ...l]);
  }
  return out;
};
const PREP_OPP = prepositionOpposites(PREPOSITION_OPPOSITES);
/**
 * Only "with" / "without": a goal and a source are two ends of one way, not two exclusive states ("to" /
 * "from London"), and a thing done before and after a time may be done at both ("before" / "after breakfast").
 */
const EXCLUSIVE_PREP_OPP = prepositionOpposites(PREPOSITION_OPPOSITES.slice(0, 1));

/** Whether `phrase` occurs in `toks` (lemmas) at some position. */
function occurs(phrase: string[], toks: string[]): boolean {
  for (let i = 0; i + phrase.length <= toks.length; i++) {
    if (phrase.every((w, j) => toks[i + j] === w)) return true;
  }
  return false;
}

/**
 * A pair of opposites in two word lists (lemmas), as "x / y", or null: a word or phrase of one, its
 * opposite in the other. `exclusive`: only opposites that cannot both hold of one thing (a goal and a
 * source can: "flew to Paris" / "flew from Paris").
 */
export function oppositeIn(a: string[], b: string[], exclusive = false): string | null {
  const lex = lexicon();
  const preps = exclusive ? EXCLUSIVE_PREP_OPP : PREP_OPP;
  for (let i = 0; i < a.length; i++) {
    for (let n = 1; n <= 3 && i + n <= a.length; n++) {
      const phrase = a.slice(i, i + n).join(' ');
      // (people are not values: "I have a brother." / "I have a sister." are two people, not one changed)
      if (PERSON.has(phrase)) continue;
      // (nor are numbers opposites, the values' rules compare them: "turned 90" / "his ninetieth birthday")
      const q = [...lex.opposites(phrase), ...(preps.get(phrase) ?? [])].find((o) => occurs(o.split(' '), b) && !(numeric(phrase) && numeric(o)));
      if (q) return `${phrase} / ${q}`;
    }
  }
  return null;
}

// ---------------------------------------------------------------- word diff

/** A replaced stretch: the words of one text and the words of the other that stand in their place. */
export interface Hunk { a: string[]; b: string[] }

/**
 * The most cells of a diff's table (words of one side × words of the other): a statement against a
 * statement, not pages against pages. Past it no stretch is read as replaced: the rules that read
 * one (an opposite, another action, a swap) are about one sentence said two ways, and the table,
 * quadratic, held the process 1.3 s for two quotes of 1,500 words.
 */
const DIFF_MAX_CELLS = 90_000;

/**
 * The replaced stretches between two word lists (compared as given), from a
 * longest common subsequence. Pure insertions and deletions are left out.
 */
export function diffHunks(a: readonly string[], b: readonly string[]): Hunk[] {
  const n = a.length, m = b.length;
  if (n * m > DIFF_MAX_CELLS) return [];
  const L: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i]![j] = a[i] === b[j] ? L[i + 1]![j + 1]! + 1 : Math.max(L[i + 1]![j]!, L[i]![j + 1]!);
  const out: Hunk[] = [];
  let i = 0, j = 0;
  let cur: Hunk = { a: [], b: [] };
  const flush = () => {
    if (cur.a.length > 0 && cur.b.length > 0) out.push(cur);
    cur = { a: [], b: [] };
  };
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) { flush(); i++; j++; }
    else if (j >= m || (i < n && L[i + 1]![j]! >= L[i]![j + 1]!)) cur.a.push(a[i++]!);
    else cur.b.push(b[j++]!);
  }
  flush();
  return out;
}

/**
 * An opposite swapped between two texts given as word lemmas (stop words
 * kept: on/off and in/out are stop words): "turning on the microwave" /
 * "turning off the microwave" -> "on / off". Looks inside each replaced stretch.
 */
export function oppositeSwap(a: readonly string[], b: readonly string[], exclusive = false): string | null {
  for (const h of diffHunks(a, b)) {
    const found = oppositeIn(h.a, h.b, exclusive);
    if (found) return found;
  }
  return null;
}

// ---------------------------------------------------------------- substitution

/** Whether two words are said for one another (a WordNet synset in common), compared as lemmas or keys. */
export function synonyms(x: string, y: string): boolean {
  return x === y || wordKey(x) === wordKey(y) || lexicon().synonymous(lemma(x), lemma(y));
}

/** The base forms a verb as said may have: "riding" ride / rid, "staring" stare / star, "stopped" stop. */
export function verbBases(w: string): string[] {
  const out = new Set([lemma(w), w]);
  for (const suffix of ['ing', 'ed', 's']) {
    if (!w.endsWith(suffix) || w.length < suffix.length + 2) continue;
    const stem = w.slice(0, -suffix.length);
    out.add(stem).add(stem + 'e');
    if (/(.)\1$/.test(stem)) out.add(stem.slice(0, -1));
    if (suffix !== 'ing' && stem.endsWith('i')) out.add(stem.slice(0, -1) + 'y');
  }
  return [...out];
}

/**
 * Another action on the same things: the same content words in the same order except one verb
 * swapped for a verb that WordNet says is neither the same action nor a kind of it ("A dog is
 * stopping on the snow" / "A dog is running on the snow", "adding cheese" / "removing cheese";
 * not "slicing" / "cutting"). Words are given as said; `verbal` says which were said as verbs.
 * Swaps of synonyms elsewhere ("the lady" / "the woman") are ignored. Returns "x / y" or null.
 */
export function actionSwap(
  a: readonly string[], b: readonly string[], verbal: (w: string) => boolean,
  particles: [(w: string) => string | undefined, (w: string) => string | undefined] = [() => undefined, () => undefined],
  minShared = 2,
): string | null {
  const la = a.map((w) => lemma(w));
  const lb = b.map((w) => lemma(w));
  const verbs = new Set([...a, ...b].filter(verbal).map((w) => lemma(w)));
  const hunks = diffHunks(la, lb).filter((h) => !(h.a.length === h.b.length && h.a.every((x, i) => synonyms(x, h.b[i]!))));
  if (hunks.length !== 1) return null;
  const h = hunks[0]!;
  if (h.a.length > 2 || h.b.length > 2 || la.length - h.a.length < minShared) return null;
  const ia = h.a.findIndex((w) => verbs.has(w));
  const ib = h.b.findIndex((w) => verbs.has(w));
  if (ia < 0 || ib < 0) return null;
  // the words as said, to read their base forms again ("riding" is ride, which the lemmatiser reads "rid")
  const wa = a[la.indexOf(h.a[ia]!)]!;
  const wb = b[lb.indexOf(h.b[ib]!)]!;
  // a verb with its particle is a verb of its own ("goes to" a school is "attends" it: WordNet's "go to")
  const forms = (w: string, next: string | undefined) => {
    const bases = verbBases(w);
    return next === undefined ? bases : [...bases, ...bases.map((x) => `${x} ${next}`)];
  };
  return lexicon().sameAction(forms(wa, particles[0](wa)), forms(wb, particles[1](wb))) === false ? `${h.a[ia]} / ${h.b[ib]}` : null;
}

/**
 * Content keys swapped one for one, everything else the same and in the same order ("bouncing a
 * soccer ball" / "bouncing a tennis ball"; "window seats on trains" / "aisle seats on planes"):
 * the first swapped word that modifies a shared head word, as "x -> y", or null. At least two
 * content keys must be shared, and swapped words that are synonyms in WordNet do not count (the
 * words as said, `wordsA` / `wordsB`, parallel to the keys, are read for that).
 */
export function substitution(a: readonly string[], b: readonly string[], wordsA: readonly string[] = a, wordsB: readonly string[] = b): string | null {
  const hunks = diffHunks(a, b);
  // everything else lines up: only single words differ, each against one
  if (hunks.length === 0 || a.length !== b.length || hunks.some((h) => h.a.length !== 1 || h.b.length !== 1)) return null;
  if (a.length - hunks.length < 2) return null;
  // the swapped words as said (keys are stems: "study" is "stud"), read for synonymy
  const said = (k: string, seq: readonly string[], words: readonly string[]) => words[seq.indexOf(k)] ?? k;
  for (const h of hunks) {
    const [x, y] = [h.a[0]!, h.b[0]!];
    if (synonyms(said(x, a, wordsA), said(y, b, wordsB))) continue;
    // a modifier of one shared head word ("a soccer ball" / "a tennis ball"): a swapped head word, verb or
    // adjective is too often a paraphrase (wedding/marriage, devour/eat, carefully/cautiously)
    const next = a[a.indexOf(x) + 1];
    if (next !== undefined && b[b.indexOf(y) + 1] === next) return `${x} -> ${y}`;
  }
  return null;
}

// ---------------------------------------------------------------- role swap

/**
 * The same content keys with two stretches exchanged around something in
 * a verb ("woman pick kangaroo" / "kangaroo pick woman"): "x <-> y", or null.
 * The first stretch opens the statement (the subject); `verb` says which keys
 * were said as verbs.
 */
export function roleSwap(a: readonly string[], b: readonly string[], verb: (k: string) => boolean = () => true): string | null {
  const n = a.length;
  if (n !== b.length || n < 3) return null;
  if ([...a].sort().join(' ') !== [...b].sort().join(' ') || a.join(' ') === b.join(' ')) return null;
  let p = 0;
  while (a[p] === b[p]) p++;
  let s = 0;
  while (a[n - 1 - s] === b[n - 1 - s]) s++;
  // the subject is one of the two: the swap starts at the first content word
  if (p !== 0) return null;
  const mid = a.slice(p, n - s);
  const bmid = b.slice(p, n - s);
  // mid = X M Y and bmid = Y M X, with M non-empty
  for (let x = 1; x < mid.length - 1; x++) {
    for (let y = 1; x + y < mid.length; y++) {
      const X = mid.slice(0, x), Y = mid.slice(mid.length - y), M = mid.slice(x, mid.length - y);
      const swapped = [...Y, ...M, ...X];
      if (swapped.join(' ') === bmid.join(' ') && X.join(' ') !== Y.join(' ') && M.some(verb)) return `${X.join(' ')} <-> ${Y.join(' ')}`;
    }
  }
  return null;
}
