/**
 * The vector mirror's exact scan of a whole space with its first pass in native code
 * (adapters/pgvector/native-ranked.ts, USearch): it must give what the JavaScript pass gives —
 * the same rows in the same order with the same distances (pgvector's, to the last bit) — for
 * every count asked, through exact ties (the same vector stored twice) and near-ties, and leave
 * a space holding a zero vector (NaN in pgvector) to the JavaScript pass.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { NativeRanked, nativeExactSearch, setNativeScan } from '../../adapters/pgvector/native-ranked.js';
import { pack, pgCosineDistance } from '../../adapters/pgvector/mirror-slots.js';
import { slotsOf } from '../helpers/mirror.js';
import { near, unitVectors } from '../contract/harness.js';

const all = (n: number) => Array.from({ length: n }, (_, i) => i);

describe('native first pass of the exact scan', () => {
  afterEach(() => setNativeScan(true));

  it('loads here (USearch ships a prebuilt module for this platform)', () => {
    if (process.platform === 'linux' && (process.arch === 'x64' || process.arch === 'arm64')) expect(nativeExactSearch()).not.toBeNull();
  });

  it('ranks a whole space as the JavaScript pass does, ties and near-ties included', () => {
    if (!nativeExactSearch()) return;
    const dim = 512;
    const base = unitVectors(3_000, 11, dim);
    // exact duplicates (ties to the last bit) and near-duplicates of a few rows
    for (let i = 0; i < 40; i++) base[2_000 + i] = Float32Array.from(base[i]);
    for (let i = 0; i < 40; i++) base[2_100 + i] = near(base[i], 0.01, 300 + i);
    const slots = slotsOf(base);
    const queries = [base[0], base[7], near(base[3], 0.2, 5), ...unitVectors(3, 12, dim)];
    for (const q of queries) {
      const native = slots.rank(all(base.length), q, false);
      expect(native).toBeInstanceOf(NativeRanked);
      setNativeScan(false);
      const js = slots.rank(all(base.length), q, false);
      setNativeScan(true);
      expect(js).not.toBeInstanceOf(NativeRanked);
      for (const m of [1, 10, 100, 200, 800, 3_000]) {
        const a = native.upTo(m);
        expect(a).toEqual(js.upTo(m));
        expect(a.d[0]).toBe(pgCosineDistance(q, base[Number(a.ids[0].slice(1))]));
      }
    }
  });

  it('ranks a window whose ties cover every row (nearest first, not in slot order) as the JavaScript pass does', () => {
    if (!nativeExactSearch()) return;
    // 1,100 rows of 64-d: the odd ones share the query's sign bits, the even ones differ in one.
    const q = unitVectors(1, 21, 64)[0].map(Math.abs);
    const rows = Array.from({ length: 1_100 }, (_, i) => {
      const v = near(q, 0.6, 400 + i).map(Math.abs);
      if (i % 2 === 0) v[i % 64] = -v[i % 64] - 0.01;
      return v;
    });
    const slots = slotsOf(rows);
    const window = slots.window(pack(q), 600);
    expect(window).toHaveLength(rows.length);
    expect(window.every((r, j) => r === j)).toBe(false);
    const ranked = slots.rank(window, q, true);
    expect(ranked).not.toBeInstanceOf(NativeRanked);
    setNativeScan(false);
    const js = slots.rank(window, q, true);
    setNativeScan(true);
    const truth = rows.map((v, i) => ({ id: `m${i}`, d: pgCosineDistance(q, v) })).sort((a, b) => a.d - b.d);
    expect(ranked.upTo(30)).toEqual(js.upTo(30));
    expect(ranked.upTo(30).d).toEqual(truth.slice(0, 30).map((x) => x.d));
  });

  it('ranks rows whose float32 norm overflows exactly, as pgvector does (distance 1)', () => {
    const base = unitVectors(1_500, 15, 64);
    const q = near(base[9], 0.1, 16);
    base[3] = q.map((x) => x * 1e20); // the query's direction, but |v|² overflows in float32: pgvector says 1
    const slots = slotsOf(base);
    const truth = base.map((v, i) => ({ id: `m${i}`, d: pgCosineDistance(q, v) })).sort((a, b) => a.d - b.d || Number(a.id.slice(1)) - Number(b.id.slice(1)));
    for (const native of [true, false]) {
      setNativeScan(native);
      const { ids, d } = slots.rank(all(base.length), q, false).upTo(3);
      expect(ids).toEqual(truth.slice(0, 3).map((x) => x.id));
      expect(d).toEqual(truth.slice(0, 3).map((x) => x.d));
    }
  });

  it('says a ranking is stale once a slot changes under it', () => {
    const base = unitVectors(1_200, 17, 64);
    const slots = slotsOf(base);
    const ranked = slots.rank(all(base.length), base[0], false);
    const kept = slots.rank(all(base.length), base[1], false);
    expect(ranked.stale()).toBe(false);
    slots.remove(['m5']);
    expect(ranked.stale()).toBe(true);
    expect(kept.stale()).toBe(true);
    expect(slots.rank(all(base.length - 1), base[0], false).stale()).toBe(false);
  });

  it('leaves a space holding a zero vector to the JavaScript pass', () => {
    if (!nativeExactSearch()) return;
    const base = unitVectors(1_500, 13, 64);
    base[5] = new Float32Array(64);
    const slots = slotsOf(base);
    const q = near(base[9], 0.1, 14);
    const ranked = slots.rank(all(base.length), q, false);
    expect(ranked).not.toBeInstanceOf(NativeRanked);
    expect(ranked.upTo(3).ids[0]).toBe('m9');
  });
});
