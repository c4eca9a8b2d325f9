/**
 * Values found on the other side, by an index: their group and norm, and, for those read two ways
 * (a time in either half of the day, a count bare or with its unit), a key those readings share.
 * `compareValues` (src/core/slots.ts) asks it of each value of a statement: a list of 1,400 numbers
 * against another was 2 million pairs weighed one by one. Pure.
 */
import { count, isOrdinal, lengthOfTime, sameCount, sameValue, valueGroup, type Value } from './values.js';
import { measureKeys } from './quantities.js';

/**
 * What `sameValue` and `sameCount` compare beyond equal norms, as one key: a time's minutes in
 * half a day, a number's or quantity's count (and a length of time's count of its smallest unit); none for the
 * kinds compared by their norm alone. Two values that are the same by those rules share one.
 */
export function comparableKeys(v: Readonly<Value>): readonly string[] {
  let keys = keysOf.get(v);
  if (!keys) keysOf.set(v, (keys = keysOnce(v)));
  return keys;
}

/** Each value's keys, read once: a value of a long statement is looked up against every sentence of another. */
const keysOf = new WeakMap<Readonly<Value>, readonly string[]>();

function keysOnce(v: Readonly<Value>): string[] {
  // (a date says its month: "in April" / "at the end of April")
  if (v.kind === 'month' || v.kind === 'date') return [`mo${v.norm.slice(0, 2)}`];
  if (v.kind === 'time') {
    const m = v.norm.match(/^~?(\d+):(\d+)$/);
    return m ? [`t${(Number(m[1]) * 60 + Number(m[2])) % 720}`] : [];
  }
  // (and a length of time as a count of its smallest unit: "an hour" and "60 minutes")
  const length = v.kind === 'quantity' ? lengthOfTime(v.norm) : null;
  // (and a measure in another unit, by its size: "1.82 metres" and "182 cm")
  if (v.kind === 'quantity') return [`n${count(v.norm)}`, ...(length ? [`d${length}`] : measureKeys(v.norm))];
  if (v.kind === 'number') return [`n${count(v.norm)}`];
  return [];
}

export interface ValueIndex {
  /** Whether one of the values is `v`, however written (`sameValue`, `sameCount`). */
  has(v: Readonly<Value>): boolean;
  /** The words of the names said whole ("New York" says no "York" on its own). */
  wholeNameWords: ReadonlySet<string>;
  /** The values that may be `v` however written: of its group and norm, or sharing a `comparableKey` with it (each kind and norm once). */
  near(v: Readonly<Value>): ReadonlyArray<Readonly<Value>>;
  /** The values of a group that are positions ("third"), or that are not (each kind and norm once). */
  inGroup(group: string, ordinal: boolean): ReadonlyArray<Readonly<Value>>;
}

/**
 * Values indexed by their group and norm, and by `comparableKey` for those read two ways: no pair weighed twice.
 * One index per list of values (the rules' lists are their texts' cached readings): a long statement's values
 * were indexed again for each sentence of another statement they were weighed against (a quote of 1,700
 * numbers against a memory of 1,000 sentences: 2 s in one `relate`, forty-fifth round). The list must not change once
 * indexed: the rules pass their cached readings (read-only) and lists they built and never change.
 */
export function valueIndex(values: ReadonlyArray<Readonly<Value>>): ValueIndex {
  let index = indexOf.get(values);
  if (!index) indexOf.set(values, (index = indexOnce(values)));
  return index;
}

const indexOf = new WeakMap<ReadonlyArray<Readonly<Value>>, ValueIndex>();

function indexOnce(values: ReadonlyArray<Readonly<Value>>): ValueIndex {
  const exact = new Map<string, Readonly<Value>[]>();
  const byKey = new Map<string, Readonly<Value>[]>();
  const byGroup = new Map<string, Readonly<Value>[]>();
  const wholeNameWords = new Set<string>();
  const seen = new Set<string>();
  const add = (map: Map<string, Readonly<Value>[]>, k: string, o: Readonly<Value>) => {
    const list = map.get(k);
    if (list) list.push(o);
    else map.set(k, [o]);
  };
  for (const o of values) {
    const id = `${o.kind}\u0000${o.norm}`;
    // (a value said again is looked up once: what it matches depends on its kind and norm only)
    if (seen.has(id)) continue;
    seen.add(id);
    add(exact, `${valueGroup(o.kind)}\u0000${o.norm}`, o);
    add(byGroup, `${valueGroup(o.kind)}\u0000${isOrdinal(o.norm)}`, o);
    for (const k of comparableKeys(o)) add(byKey, k, o);
    if (o.norm.includes(' ')) for (const w of o.norm.split(' ')) wholeNameWords.add(w);
  }
  return {
    has: (v) => {
      if (exact.has(`${valueGroup(v.kind)}\u0000${v.norm}`)) return true;
      return comparableKeys(v).some((k) => (byKey.get(k) ?? []).some((o) => (valueGroup(o.kind) === valueGroup(v.kind) && sameValue(v.kind, o.norm, v.norm))
        || sameCount(o, v) || monthOfDate(o, v)));
    },
    wholeNameWords,
    near: (v) => {
      const keys = comparableKeys(v);
      const same = exact.get(`${valueGroup(v.kind)}\u0000${v.norm}`) ?? [];
      if (keys.length === 0) return same;
      return [...new Set([...same, ...keys.flatMap((k) => byKey.get(k) ?? [])])];
    },
    inGroup: (group, ordinal) => byGroup.get(`${group}\u0000${ordinal}`) ?? [],
  };
}

/** A month and a date in it, either way round: "in April" is said by "the end of April" (the date the more precise). */
function monthOfDate(a: Readonly<Value>, b: Readonly<Value>): boolean {
  const kinds = new Set([a.kind, b.kind]);
  return kinds.has('month') && kinds.has('date') && a.norm.slice(0, 2) === b.norm.slice(0, 2);
}
