/**
 * The recognition rules' per-text caches (src/core/memo.ts): a cached text function gives
 * what the function computes, and what one caller does to its answer never reaches the next.
 */
import { describe, expect, it } from 'vitest';
import { memoByText, forgetSentenceReadings } from '../../src/core/memo.js';

const copyArray = <T>(xs: T[]): T[] => xs.slice();
const copySet = <T>(s: Set<T>): Set<T> => new Set(s);
import { extractValues, type Value } from '../../src/core/values.js';
import { clauses, contentKeys, toks, type StatementLike } from '../../src/core/conflict-words.js';
import { slots, valuesOf } from '../../src/core/slots.js';

describe('memoByText', () => {
  it('computes once per text and hands each caller its own copy', () => {
    let calls = 0;
    const f = memoByText((t: string) => { calls++; return t.split(' '); }, copyArray);
    const a = f('a b c');
    a.push('mutated');
    expect(f('a b c')).toEqual(['a', 'b', 'c']);
    expect(calls).toBe(1);
    const s = memoByText((t: string) => new Set(t.split(' ')), copySet);
    s('x y').add('z');
    expect([...s('x y')]).toEqual(['x', 'y']);
  });

  it('forgets every sentence\'s readings on demand (the bench\'s readings afresh), keeping the token caches', () => {
    let sentences = 0;
    let tokens = 0;
    const bySentence = memoByText((t: string) => { sentences++; return [t]; }, copyArray);
    const byToken = memoByText((t: string) => { tokens++; return [t]; }, copyArray, 100, 64, 'token');
    bySentence('My sister lives in Lisbon.');
    byToken('lisbon');
    forgetSentenceReadings();
    bySentence('My sister lives in Lisbon.');
    byToken('lisbon');
    expect(sentences).toBe(2);
    expect(tokens).toBe(1);
  });

  it('keeps at most `max` texts, dropping the oldest', () => {
    let calls = 0;
    const f = memoByText((t: string) => { calls++; return [t]; }, copyArray, 2, 10);
    f('one'); f('two'); f('three');
    f('three'); f('two');
    expect(calls).toBe(3);
    f('one');
    expect(calls).toBe(4);
  });

  it('keeps the four long texts read last apart (one remember reads its long quote once, not once per candidate), none past 100,000 characters', () => {
    let calls = 0;
    const f = memoByText((t: string) => { calls++; return [t]; }, copyArray, 2, 10);
    const longs = ['a', 'b', 'c', 'd', 'e'].map((x) => x.repeat(11));
    f(longs[0]!); f(longs[0]!);
    expect(calls).toBe(1);
    // long texts do not push the short ones out, nor the short the long
    f('one'); f('two'); f('three');
    f(longs[0]!);
    expect(calls).toBe(4);
    for (const l of longs.slice(1)) f(l);
    expect(calls).toBe(8);
    f(longs[4]!); f(longs[1]!);
    expect(calls).toBe(8);
    f(longs[0]!); // the oldest of five went
    expect(calls).toBe(9);
    const huge = 'z'.repeat(100_001);
    f(huge); f(huge);
    expect(calls).toBe(11);
    // the one read most recently stays: the new statement, read between long candidates
    calls = 0;
    forgetSentenceReadings();
    const [statement, ...candidates] = ['s', 'p', 'q', 'r', 't', 'u'].map((x) => x.repeat(11));
    for (const c of candidates) { f(statement!); f(c); }
    expect(calls).toBe(1 + candidates.length);
    // a long text's reading is let go with the rest (a forget for good)
    forgetSentenceReadings();
    f(longs[1]!);
    expect(calls).toBe(candidates.length + 2);
  });

  it('a rule that adds to a cached answer does not change the next answer (valuesOf adds the entities it finds)', () => {
    const text = 'my friend Ana moved to Lisbon in 2019';
    const before = extractValues(text).map((v) => ({ ...v }));
    const statement: StatementLike = { text: 'Ana and I moved to Lisbon', type: 'FACT', entities: ['Ana'], themes: [], previousSentence: null };
    const withEntity = valuesOf(statement);
    expect(withEntity.some((v) => v.norm === 'ana')).toBe(true);
    expect(extractValues('Ana and I moved to Lisbon').some((v) => v.norm === 'ana')).toBe(false);
    expect(extractValues(text)).toEqual(before);
  });

  it('a shared cached answer is read-only to the compiler (the project\'s type check runs with the tests)', () => {
    const text = 'my friend Ana moved to Lisbon in 2019';
    const read = () => {
      // @ts-expect-error a cached reading's list is read-only
      extractValues(text).push({ kind: 'name', raw: 'Zed', norm: 'zed' });
      // @ts-expect-error and so are its values
      extractValues(text)[0]!.norm = 'changed';
      // @ts-expect-error a cached set too
      contentKeys(text).add('intruder');
      // @ts-expect-error and a clause's words
      clauses(text)[0]!.push('x');
    };
    expect(read).toThrow(TypeError); // (and, under the tests, sealed at run time: below)
  });

  it('a shared cached answer refuses every change at run time under the tests (SEALED), as its read-only type does at compile time', () => {
    const text = 'my friend Ana moved to Lisbon in 2019';
    const before = extractValues(text).map((v) => ({ ...v }));
    // (the casts stand for a caller that got around the read-only types)
    const vals = extractValues(text) as Value[];
    expect(() => vals.push({ kind: 'name', raw: 'Zed', norm: 'zed' })).toThrow(TypeError);
    expect(() => { vals[0]!.norm = 'changed'; }).toThrow(TypeError);
    expect(extractValues(text)).toEqual(before);
    const keys = contentKeys(text) as Set<string>;
    expect(() => keys.add('intruder')).toThrow(TypeError);
    expect(() => keys.delete([...keys][0]!)).toThrow(TypeError);
    expect(() => keys.clear()).toThrow(TypeError);
    expect(contentKeys(text).has('intruder')).toBe(false);
    expect(contentKeys(text).size).toBeGreaterThan(0);
    const ts = toks(text) as string[];
    expect(() => { ts.length = 0; }).toThrow(TypeError);
    expect(toks(text).length).toBeGreaterThan(0);
    const cs = clauses('I moved to Lisbon, then to Porto.') as string[][];
    expect(() => cs[0]!.push('x')).toThrow(TypeError);
    expect(clauses('I moved to Lisbon, then to Porto.').map((c) => c.join(' '))).toEqual(['i moved to lisbon', 'then to porto']);
  });

  it('slots read once per text give what reading them against the pair\'s names gives: a name changes them only as a role word', () => {
    const text = 'My brother lives in Leeds.';
    // "my brother" may be any of several brothers: no single-valued subject, with no names or names the text does not say
    expect([...slots(text, new Set())]).not.toContain('np:brother');
    expect([...slots(text, new Set(['ana']))]).toEqual([...slots(text, new Set())]);
    // a name that is the role word itself, said in the text, makes the subject one person: read against the names
    expect([...slots(text, new Set(['brother']))]).toContain('np:brother');
    // and the per-text reading is not changed by it
    expect([...slots(text, new Set())]).not.toContain('np:brother');
    const named = 'My brother Owen lives in Leeds.';
    expect([...slots(named, new Set(['owen']))]).toEqual([...slots(named, new Set())]);
  });
});
