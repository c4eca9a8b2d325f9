/** Every cache keyed by a whole sentence (`memoByText`'s, and `registerSentenceCache`'s). */
const sentenceCaches = new Set<Map<string, unknown>>();
/** Every cache keyed by one token (`memoByText`'s of scope 'token', and `registerTokenCache`'s). */
const tokenCaches = new Set<Map<string, unknown>>();

/** Long texts kept per cache (the least recently read goes first), and the longest kept: a quote is at most 20,000 characters. */
const MAX_LONG = 4;
const MAX_LONG_CHARS = 100_000;

/**
 * Per-text caches for the recognition rules' pure text functions (tokens, values, cues,
 * content keys): one remember runs the rules on the new statement against each of its
 * candidates, so without a cache the new statement is tokenised and read again for every
 * candidate, and several rules read the same sentence more than once.
 *
 * A cached function returns exactly what the function computes (it is pure: the text is
 * its only input), so that no caller can change what the next caller sees: either the value
 * itself typed read-only (`shared`: most caches) or a fresh copy each call (`copy`). Bounded:
 * the oldest entry goes first; texts past `maxChars` are kept apart, the last `MAX_LONG` read of them.
 */
export function memoByText<R>(
  fn: (text: string) => R, copy: (r: R) => R, max = 2_000, maxChars = 2_000, scope: 'sentence' | 'token' = 'sentence',
): (text: string) => R {
  const cache = new Map<string, R>();
  // Long texts apart, the last few only: one remember reads its statement against each of up to
  // candidateK candidates, and a 20,000-character quote read afresh for each held the event loop
  // for ~0.7 s (forty-second round); a few long readings are what one remember needs, never more.
  const long = new Map<string, R>();
  const caches = scope === 'sentence' ? sentenceCaches : tokenCaches;
  caches.add(cache);
  caches.add(long);
  return (text: string): R => {
    const isLong = text.length > maxChars;
    const held = isLong ? long : cache;
    let r = held.get(text);
    // (a long text read again is the latest: the new statement, read against each candidate, stays while long candidates come and go)
    if (r !== undefined && isLong) {
      long.delete(text);
      long.set(text, r);
    }
    if (r === undefined) {
      r = copy === shared && SEALED ? sealed(fn(text)) : fn(text);
      if (isLong && text.length > MAX_LONG_CHARS) return r;
      if (held.size >= (isLong ? MAX_LONG : max)) held.delete(held.keys().next().value as string);
      held.set(text, r);
    }
    return copy(r);
  };
}

const refuse = (): never => {
  throw new TypeError('a cached reading is shared: copy it to change it');
};

/** A set no one can change once built: its own `add`, `delete` and `clear` throw (to all else it is a Set). */
function sealSet<T>(s: Set<T>): Set<T> {
  for (const m of ['add', 'delete', 'clear']) Object.defineProperty(s, m, { value: refuse, enumerable: false });
  return s;
}

/**
 * Whether shared readings are sealed when computed: under the test runner, so that every test
 * that runs the rules would throw at a caller that changes a shared answer through a cast. Not in
 * service: frozen arrays take V8's slower paths, and sealing made the rules ~8 % slower than
 * copying (thirtieth round); the read-only types already refuse a change at compile time.
 */
const SEALED = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.VITEST !== undefined;

/** Arrays and plain objects frozen all the way down, sets sealed (`sealSet`): once per cached text. */
function sealed<T>(x: T): T {
  if (x instanceof Set) return sealSet(x) as T;
  if (Array.isArray(x)) {
    for (const v of x) sealed(v);
    return Object.freeze(x);
  }
  if (x !== null && typeof x === 'object' && Object.getPrototypeOf(x) === Object.prototype) {
    for (const v of Object.values(x)) sealed(v);
    return Object.freeze(x);
  }
  return x;
}

/**
 * No copy: the cached value itself, for a function whose result is typed read-only (`readonly T[]`,
 * `ReadonlySet`, `Readonly<…>`), so no caller can change what the next one sees: the compiler
 * refuses it, and under the tests the value is sealed when computed (a change throws: `SEALED`).
 * The rules ask the same readings of a sentence many times per remember; copying each answer was
 * a seventh of their time (docs/bench-rounds.md, "Thirtieth round").
 */
export const shared = <T>(x: T): T => x;

/** A cache keyed by whole sentences, kept elsewhere (derive.ts), emptied with the others. */
export function registerSentenceCache(cache: Map<string, unknown>): void {
  sentenceCaches.add(cache);
}

/** A cache keyed by single tokens, kept elsewhere (conflict-words.ts), emptied by `forgetAllReadings`. */
export function registerTokenCache(cache: Map<string, unknown>): void {
  tokenCaches.add(cache);
}

/**
 * Forgets every reading held, sentences and tokens alike: after a forget for good, no cache of the
 * rules keeps the forgotten words, not even one of them (docs/erasure.md, "Every process"). The
 * next remember reads its sentences and words afresh.
 */
export function forgetAllReadings(): void {
  for (const c of sentenceCaches) c.clear();
  for (const c of tokenCaches) c.clear();
}

/** Whether any reading held is keyed by a text that contains `text` (case-insensitive): what the erasure tests ask. */
export function readingsHold(text: string): boolean {
  const needle = text.toLowerCase();
  for (const c of [...sentenceCaches, ...tokenCaches]) for (const k of c.keys()) if (k.toLowerCase().includes(needle)) return true;
  return false;
}

/**
 * Forgets every sentence's readings (the token caches stay: a vocabulary is warm in any running
 * service). For the bench: a space's older memories, and every memory after a restart, are read
 * afresh the first time they come up as candidates; the quick bench measures remember that way too.
 */
export function forgetSentenceReadings(): void {
  for (const c of sentenceCaches) c.clear();
}
