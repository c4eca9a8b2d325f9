/**
 * Entities the server reads from a sentence itself, for callers that send the quote alone
 * (docs/recognition.md, "Derived entities"). wink-nlp with its lite English model (shipped in
 * the npm package, offline) tags each word; kept are:
 *
 * - names: runs of proper nouns ("Owen", "Honda Civic", "Liverpool FC");
 * - things: the lemma of each common noun ("peanuts" -> peanut, "colour" -> color);
 * - dates, times and quantities the model's entity recogniser finds ("May 4", "10am", "$1,200").
 *
 * Pure and deterministic; about a millisecond per sentence once the model is loaded (the
 * model loads on first use, ~1.5 s, once per process). The text read is bounded.
 */
import winkNLP, { type ItemToken } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';
import { STOP_WORDS } from './words.js';
import { registerSentenceCache } from './memo.js';

/** The most text read per call: derivation is synchronous, so it never runs over unbounded input. */
export const DERIVE_MAX_CHARS = 2000;

type Nlp = ReturnType<typeof winkNLP>;
let nlp: Nlp | null = null;

function load(): Nlp {
  if (!nlp) nlp = winkNLP(model);
  return nlp;
}

/** Loads the model now (at start-up), so the first remember does not pay for it. */
export function warmDerivation(): void {
  load();
}

/** Entity types of the model kept as derived entities (a bare duration like "month" names nothing). */
const KEPT_TYPES = new Set(['DATE', 'TIME', 'MONEY', 'PERCENT', 'CARDINAL', 'ORDINAL', 'EMAIL', 'URL', 'MENTION', 'HASHTAG', 'MEASURE']);

interface Derived { all: string[]; names: string[]; nouns: string[]; times: string[] }
const cache = new Map<string, Derived>();
registerSentenceCache(cache);
const CACHE_MAX = 5000;

/**
 * The entities a sentence names, in the order said, without repeats: names as written, the
 * rest lower-cased.
 * Compared with the caller's entities case-insensitively (src/core/recognition.ts).
 */
export function deriveEntities(text: string): string[] {
  return derive(text).all;
}

/**
 * Only the names, dates and quantities (no common nouns): what may let two wordings meet as one
 * fact. Common nouns ("dog", "ball") are shared by contradictory sentences too ("A dog is
 * running" / "A dog is resting"), so they only say two statements are about the same thing.
 */
export function deriveNames(text: string): string[] {
  return derive(text).names;
}

/** The common nouns of a sentence as said, lower-cased ("hobbies", "hiking"), gerunds included ("I go birdwatching"), in order, without repeats. */
export function deriveNouns(text: string): string[] {
  return derive(text).nouns;
}

/** The dates and times a sentence says, as the model's entity recogniser finds them ("yesterday", "May 4", "10am"). */
export function deriveTimes(text: string): string[] {
  return derive(text).times;
}

function derive(text: string): Derived {
  const t = text.slice(0, DERIVE_MAX_CHARS);
  const hit = cache.get(t);
  if (hit) return hit;
  const n = load();
  const its = n.its;
  const doc = n.readDoc(t);
  const out: string[] = [];
  const names: string[] = [];
  const nouns = new Set<string>();
  const times: string[] = [];
  const seen = new Set<string>();
  const add = (x: string, keepCase = false) => {
    const v = (keepCase ? x : x.toLowerCase()).replace(/[.,;:!?]+$/, '').trim();
    if (v && !seen.has(v.toLowerCase())) {
      seen.add(v.toLowerCase());
      out.push(v);
    }
  };
  let run: string[] = [];
  const flush = () => {
    if (run.length) {
      add(run.join(' '), true);
      names.push(run.join(' '));
    }
    run = [];
  };
  doc.tokens().each((tok: ItemToken) => {
    const word = tok.out() as string;
    const pos = tok.out(its.pos) as string;
    const type = tok.out(its.type) as string;
    // a contraction read as one word ("I'm") is no name
    const plain = type === 'word' && /^\p{L}[\p{L}-]*$/u.test(word);
    if (pos === 'PROPN' && plain && word !== 'I') {
      run.push(word);
      return;
    }
    flush();
    const content = plain && word.length >= 3 && !(tok.out(its.stopWordFlag) as boolean);
    if (pos === 'NOUN' && content) {
      add(tok.out(its.lemma as never) as string);
      nouns.add(word.toLowerCase());
    }
    // a gerund names an activity as a noun does ("I go birdwatching"): a noun for themes only
    if (pos === 'VERB' && content && /ing$/i.test(word) && !STOP_WORDS.has(word.toLowerCase())) nouns.add(word.toLowerCase());
  });
  flush();
  for (const e of doc.entities().out(its.detail) as unknown as Array<{ value: string; type: string }>) {
    if (e.type === 'DATE' || e.type === 'TIME') times.push(e.value.toLowerCase());
    if (KEPT_TYPES.has(e.type)) {
      add(e.value);
      names.push(e.value.toLowerCase().replace(/[.,;:!?]+$/, '').trim());
    }
  }
  const r = { all: out, names, nouns: [...nouns], times };
  if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
  cache.set(t, r);
  return r;
}
