/**
 * The lexicon's cache as text, read without building objects (src/lexicon/wordnet.ts): each
 * table is one string of sorted lines `key<TAB>value<TAB>value...`, looked up by bisection.
 *
 * Why: the cache was one JSON object of ~200,000 keys and arrays; `JSON.parse` of it held the
 * event loop for 0.3–1 s (the first remember after a start waited on it, and every request with
 * it). Reading text is an asynchronous file read and a slice per table; a lookup bisects a
 * table's line starts, indexed on its first use (a scan for newlines, milliseconds), and
 * decodes only the line it finds.
 */

/** Keys and values may hold neither separator: such an entry is left out of the table. */
const clean = (s: string) => !s.includes('\t') && !s.includes('\n');

/**
 * A table as sorted lines (JavaScript string order, the order `lookup` bisects in); `pause` is
 * awaited between slices of entries (a build that yields to the event loop).
 */
export async function toSortedLines(
  table: Record<string, ReadonlyArray<string | number>>, pause: () => Promise<void> | null = () => null,
): Promise<string> {
  const keys = Object.keys(table).sort();
  const lines: string[] = [];
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    const v = table[k]!;
    if (clean(k) && v.length > 0 && v.every((x) => clean(String(x)))) lines.push(`${k}\t${v.join('\t')}`);
    if ((i & 1023) === 1023) await pause();
  }
  return lines.join('\n');
}

/** How many entries a table of sorted lines holds. */
export function lineCount(text: string): number {
  if (!text) return 0;
  let n = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Looks keys up in sorted lines: the values of the key's line, or null. Decoded lines are
 * remembered (a remember asks about the same few dozen words many times).
 */
export interface SortedLinesLookup<T> {
  (key: string): T | null;
  /** Forgets the keys looked up (a forget for good: they may be a person's words). */
  letGo(): void;
  /** Whether a key looked up is still remembered. */
  holds(key: string): boolean;
}

export function sortedLinesLookup<T>(text: string, decode: (values: string[]) => T): SortedLinesLookup<T> {
  let starts: Int32Array | null = null;
  const memo = new Map<string, T | null>();
  const index = (): Int32Array => {
    const out = new Int32Array(lineCount(text));
    let n = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) out[n++] = i + 1;
    return out;
  };
  const find = (key: string): T | null => {
    if (!text) return null;
    starts ??= index();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const at = starts[mid]!;
      const tab = text.indexOf('\t', at);
      const k = text.slice(at, tab);
      if (k === key) {
        const end = text.indexOf('\n', tab);
        return decode(text.slice(tab + 1, end < 0 ? text.length : end).split('\t'));
      }
      if (k < key) lo = mid + 1;
      else hi = mid - 1;
    }
    return null;
  };
  const lookup = (key: string): T | null => {
    let v = memo.get(key);
    if (v === undefined) {
      if (memo.size >= 20_000) memo.clear();
      memo.set(key, (v = find(key)));
    }
    return v;
  };
  return Object.assign(lookup, { letGo: () => memo.clear(), holds: (key: string) => memo.has(key) });
}
