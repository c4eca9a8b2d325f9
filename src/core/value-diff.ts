/**
 * The values two statements give, compared: as sets (however each is written: "42" / "forty-two", "80 kg" / "80 kilos")
 * and at their places ("Room 3 is on floor 7." / "Room 7 is on floor 3."). Split from slots.ts (forty-fifth round); see
 * docs/corrections.md, "new-value" and "value-mismatch".
 */
import { extractValues, foldMarks, isOrdinal, valueGroup, type Value } from './values.js';
import { valueIndex, type ValueIndex } from './value-index.js';
import { memoByText, shared } from './memo.js';
import { misplacedValue } from './value-places.js';
import { toks, type StatementLike } from './conflict-words.js';

export interface ValueDiff {
  /** groups in which both sides say a value the other does not */
  disagree: string[];
  /** values of the old statement the new one says too, however written (numbers, times, dates, quantities, contacts; not names) */
  shared: number;
  /** describes the first disagreement */
  detail: string;
  /** values said only by the new statement */
  added: Value[];
  /** values said only by the old statement */
  dropped: Value[];
}

/**
 * A reading of a statement's text and entities, cached by both (the key: the JSON list of the text,
 * then the entities, so no entity's characters can make two keys one).
 */
function memoByStatement<R>(fn: (text: string, entities: readonly string[]) => R): (s: Pick<StatementLike, 'text' | 'entities'>) => R {
  const byKey = memoByText((key) => {
    const [text, ...entities] = JSON.parse(key) as string[];
    return fn(text!, entities);
  }, shared);
  return (s) => byKey(JSON.stringify([s.text, ...s.entities]));
}

/** Values of a statement, with the capitalised entities it names in its text (a name opening the sentence is missed by extractValues). */
export function valuesOf(s: Pick<StatementLike, 'text' | 'entities'>): ReadonlyArray<Readonly<Value>> {
  return s.entities.length === 0 ? extractValues(s.text) : valuesWithEntities(s);
}

const valuesWithEntities = memoByStatement((text, entities): ReadonlyArray<Readonly<Value>> => {
  const vals: Array<Readonly<Value>> = [...extractValues(text)];
  const textToks = new Set(toks(text));
  // (the words of a name read whole from the text are that name's: "New York" adds no "New" and no "York")
  const have = new Set(vals.flatMap((v) => [v.norm, ...(v.norm.includes(' ') ? v.norm.split(' ') : [])]));
  for (const e of entities) {
    for (const part of e.split(/\s+/)) {
      if (!/^\p{Lu}/u.test(part) || extractValues(`x ${part}`).some((v) => v.kind !== 'name')) continue;
      const low = part.toLowerCase();
      if (textToks.has(low) && !have.has(low)) {
        vals.push({ kind: 'name', raw: part, norm: foldMarks(low) });
        have.add(low);
      }
    }
  }
  return vals;
});

/** Word forms of a statement, for "is this name said on the other side?" */
export function wordSet(s: Pick<StatementLike, 'text' | 'entities'>): ReadonlySet<string> {
  return s.entities.length === 0 ? textWords(s.text) : wordsWithEntities(s);
}

const wordsWithEntities = memoByStatement((text, entities): ReadonlySet<string> => {
  const out = new Set(textWords(text));
  for (const e of entities) for (const w of toks(e)) out.add(w);
  return out;
});

const textWords: (text: string) => ReadonlySet<string> = memoByText((text) => new Set(toks(text).map((w) => foldMarks(w.replace(/'s?$/, '')))), shared);

/** A value the other side says too, however written, or, a name, says as a word of its own (not of a longer name). */
const found = (v: Readonly<Value>, others: ValueIndex, otherWords: ReadonlySet<string>): boolean =>
  others.has(v) || (valueGroup(v.kind) === 'name' && otherWords.has(v.norm) && !others.wholeNameWords.has(v.norm));

export function compareValues(oldS: StatementLike, newS: StatementLike): ValueDiff {
  const ov = valuesOf(oldS);
  const nv = valuesOf(newS);
  const ow = wordSet(oldS);
  const nw = wordSet(newS);
  const [inOld, inNew] = [valueIndex(ov), valueIndex(nv)];
  const oldOnly = ov.filter((v) => !found(v, inNew, nw));
  const newOnly = nv.filter((v) => !found(v, inOld, ow));
  const disagree: string[] = [];
  let detail = '';
  for (const g of new Set(oldOnly.map((v) => valueGroup(v.kind)))) {
    const o = oldOnly.filter((v) => valueGroup(v.kind) === g);
    // (a count and a position measure two things: "two bedrooms" / "the third floor")
    const n = newOnly.filter((v) => valueGroup(v.kind) === g && o.some((x) => isOrdinal(x.norm) === isOrdinal(v.norm)));
    if (n.length === 0) continue;
    disagree.push(g);
    if (!detail) detail = `${g}: "${oldOnly.find((v) => valueGroup(v.kind) === g)!.raw}" -> "${n[0].raw}"`;
  }
  // (values at their places, only where the values as sets agree: a word read alone is not the value it is part of, "50"
  // of "50mg" a number, and "50mg" / "100mg" disagreed twice, as quantities and as numbers)
  const moved = disagree.length === 0 ? misplacedValue(oldS.text, newS.text) : null;
  if (moved) {
    disagree.push(moved.group);
    detail = moved.detail;
  }
  const shared = ov.filter((v) => valueGroup(v.kind) !== 'name' && !oldOnly.includes(v)).length;
  return { disagree, shared, detail, added: newOnly, dropped: oldOnly };
}

/**
 * `compareValues(oldS, newS).disagree`, read without weighing each of the new statement's values: the
 * groups of the old statement's values the new one does not say, in which the new one says a value (of
 * the same count-or-position reading) the old one does not. Weighs the old statement's values, and of the
 * new one's only as many as it takes to find one the old does not say: the rules weigh each sentence of a
 * memory against one new sentence, which may be thousands of values long (forty-fifth round).
 */
export function disagreeingGroups(oldS: StatementLike, newS: StatementLike): string[] {
  const ov = valuesOf(oldS);
  const nv = valuesOf(newS);
  const ow = wordSet(oldS);
  const inOld = valueIndex(ov);
  const inNew = valueIndex(nv);
  const nw = wordSet(newS);
  const disagree: string[] = [];
  const oldOnly = ov.filter((v) => !found(v, inNew, nw));
  for (const g of new Set(oldOnly.map((v) => valueGroup(v.kind)))) {
    const readings = new Set(oldOnly.filter((v) => valueGroup(v.kind) === g).map((v) => isOrdinal(v.norm)));
    if ([...readings].some((ord) => inNew.inGroup(g, ord).some((v) => !found(v, inOld, ow)))) disagree.push(g);
  }
  const moved = disagree.length === 0 ? misplacedValue(oldS.text, newS.text) : null;
  if (moved) disagree.push(moved.group);
  return disagree;
}
