/**
 * Per-text caches for the recognition rules' pure text functions (tokens, values, cues,
 * content keys): one remember runs the rules on the new statement against each of its
 * candidates, so without a cache the new statement is tokenised and read again for every
 * candidate, and several rules read the same sentence more than once.
 *
 * A cached function returns exactly what the function computes (it is pure: the text is
 * its only input), and a fresh copy each call (`copy`), so a caller that adds to the list
 * or set it got never changes what the next caller sees. Bounded: the oldest entry goes
 * first; long texts are not kept (computed each time, as before).
 */
export function memoByText<R>(fn: (text: string) => R, copy: (r: R) => R, max = 2_000, maxChars = 2_000): (text: string) => R {
  const cache = new Map<string, R>();
  return (text: string): R => {
    let r = cache.get(text);
    if (r === undefined) {
      r = fn(text);
      if (text.length > maxChars) return r;
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      cache.set(text, r);
    }
    return copy(r);
  };
}

export const copyArray = <T>(xs: T[]): T[] => xs.slice();
export const copySet = <T>(s: Set<T>): Set<T> => new Set(s);
export const copyObjects = <T extends object>(xs: T[]): T[] => xs.map((x) => ({ ...x }));
