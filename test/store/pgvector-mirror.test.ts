/**
 * The in-process vector mirror of the embedded store (adapters/pgvector/vector-mirror.ts):
 * PGlite's searches read a copy of the space's vectors kept in the process. It must give the
 * answers SQL gives — the same ids, the same distances to the last bit — through every way the
 * table changes: rows added after the copy was read, vectors replaced, rows removed through the
 * adapter or behind its back, statuses changed, and a transaction that read its own rows and
 * then rolled back. The reference is the same PGlite store searched in SQL (mirror: false).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PgliteClient } from '../../src/store/pglite-client.js';
import type { IndexedVector, VectorSearch } from '../../src/ports/vector-index.js';
import { PgvectorIndex } from '../../adapters/pgvector/pgvector-index.js';
import { VectorMirror } from '../../adapters/pgvector/vector-mirror.js';
import { pack, pgCosineDistance, Ranked, Slots, smallest } from '../../adapters/pgvector/mirror-slots.js';
import { rng } from '../../src/core/random.js';
import { toPgVectorText } from '../../src/core/vectors.js';
import { near, type Seeder, unitVectors } from '../contract/harness.js';
import { openMirrorStore, slotsOf } from '../helpers/mirror.js';

const DIM = 512;

describe('pgvector vector mirror (pglite)', () => {
  let db: PgliteClient;
  let mirrored: PgvectorIndex;
  let sql: PgvectorIndex;
  let seed: Seeder;

  beforeAll(async () => {
    ({ db, mirrored, sql, seed } = await openMirrorStore(DIM));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('computes pgvector\'s cosine distance to the last bit', async () => {
    for (const dim of [DIM, 100, 3]) {
      const a = unitVectors(60, 31 + dim, dim);
      const b = unitVectors(60, 32 + dim, dim).map((v, i) => (i % 3 === 0 ? near(a[i], 0.05, i) : v));
      const r = await db.query<{ d: number }>(
        `select a <=> b as d from unnest($1::text[], $2::text[]) as x(a_text, b_text), lateral (select a_text::vector as a, b_text::vector as b) v`,
        [a.map(toPgVectorText), b.map(toPgVectorText)],
      );
      const ours = a.map((v, i) => pgCosineDistance(v, b[i]));
      expect(ours).toEqual(r.rows.map((x) => Number(x.d)));
    }
  });

  it('answers as SQL does through additions, replacements, removals, status changes and a rollback', async () => {
    const space = await seed.space();
    const base = unitVectors(1_200, 41, DIM);
    const items: IndexedVector[] = [];
    for (let i = 0; i < base.length; i += 300) items.push(...(await seed.put(space, base.slice(i, i + 300))));
    const queries = [
      ...Array.from({ length: 12 }, (_, j) => near(base[(j * 97) % base.length], 0.15 + 0.1 * (j % 6), 500 + j)),
      ...unitVectors(4, 77, DIM),
    ];
    const asks = (q: Float32Array): VectorSearch[] => [
      // recognition: the sign-bit window, nothing below minScore weighed
      { spaceId: space, vector: q, k: 10, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore: 0.4 },
      // recall: the exact top k of the whole space (past 1,000 rows: ranked in double first, then exactly)
      { spaceId: space, vector: q, k: 100, statuses: ['ACTIVE', 'MUTED'], kind: 'STATEMENT' },
      { spaceId: space, vector: q, k: 5, statuses: ['MUTED'], kind: 'STATEMENT', exact: true },
    ];
    const agree = async (when: string) => {
      for (const [qi, q] of queries.entries()) {
        // PGlite answers through promises alone: a macrotask turn now and then keeps the worker's event loop free.
        await new Promise((r) => setImmediate(r));
        for (const ask of asks(q)) {
          // Half the searches read ahead first, as remember and recall do (the copy is then searched as held).
          if (qi % 2 === 0) await mirrored.prepare(space, 'STATEMENT');
          const ours = await mirrored.search(ask);
          let truth = await sql.search(ask);
          if (ask.minScore !== undefined) truth = truth.filter((h) => h.score >= ask.minScore!);
          expect(ours, `${when}: k ${ask.k} ${(ask.statuses ?? []).join('+')}`).toEqual(truth);
        }
      }
    };
    await agree('as loaded');

    // Added after the mirror read the space, some of them restatements of queried rows.
    const added = await seed.put(space, [...queries.slice(0, 6).map((q, i) => near(q, 0.1, 900 + i)), ...unitVectors(20, 78, DIM)]);
    await agree('rows added');

    // Read ahead, then written before the search (another request's remember in between): the
    // search's first statement finds the row past the copy, which catches up and ranks again.
    for (const minScore of [0.4, undefined]) {
      await mirrored.prepare(space, 'STATEMENT');
      const [late] = await seed.put(space, [near(queries[5], 0.02, minScore ? 996 : 997)]);
      const hits = await mirrored.search({ spaceId: space, vector: queries[5], k: 3, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore });
      expect(hits[0].memoryId).toBe(late.memoryId);
    }
    // Read ahead, then a far row written: recognition reads no status (nothing near enough) and asks alone.
    await mirrored.prepare(space, 'STATEMENT');
    const far = unitVectors(1, 998, DIM)[0];
    const [lone] = await seed.put(space, [far]);
    expect((await mirrored.search({ spaceId: space, vector: far, k: 3, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore: 0.4 }))[0].memoryId)
      .toBe(lone.memoryId);
    await agree('rows written after a read-ahead');

    // Vectors replaced (a re-embedding): the same ids, new vectors.
    await mirrored.upsert(items.slice(0, 30).map((it, i) => ({ ...it, vector: near(queries[i % queries.length], 0.3, 950 + i) })));
    await agree('vectors replaced');

    // Statuses changed: the nearest rows of some queries muted, then some put back.
    const nearest = (await sql.search({ spaceId: space, vector: queries[0], k: 40, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true })).map((h) => h.memoryId);
    await seed.setStatus(nearest, 'MUTED');
    await agree('nearest muted');
    await seed.setStatus(nearest.slice(0, 10), 'ACTIVE');
    await agree('some unmuted');

    // Removed through the adapter, and behind its back (memories deleted in SQL: their vectors cascade).
    await mirrored.remove([added[0].memoryId, items[50].memoryId]);
    await agree('removed through the adapter');
    const gone = [added[1].memoryId, added[2].memoryId, ...nearest.slice(10, 20)];
    await db.query(`delete from memory_vectors where memory_id = any($1::text[])`, [gone]);
    await db.query(`delete from memory_state where memory_id = any($1::text[])`, [gone]);
    await agree('removed behind the adapter');

    // A transaction writes rows and a replacement, searches (the mirror reads its uncommitted rows), then rolls back.
    const rolled = near(queries[3], 0.05, 990);
    await expect(db.transaction(async (tx) => {
      await tx.query(
        `insert into memories (id, space_id, kind, type, quote, normalized, said_at) values ('rolled', $1, 'STATEMENT', 'FACT', 'r', 'r', now())`, [space]);
      await tx.query(
        `insert into memory_state (memory_id, space_id, kind, type, status, last_mentioned_at) values ('rolled', $1, 'STATEMENT', 'FACT', 'ACTIVE', now())`, [space]);
      await mirrored.upsert([{ memoryId: 'rolled', spaceId: space, kind: 'STATEMENT', status: 'ACTIVE', vector: rolled },
        { ...items[60], vector: near(queries[4], 0.05, 991) }], tx);
      const inside = await mirrored.search({ spaceId: space, vector: rolled, k: 3, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore: 0.4 }, tx);
      expect(inside[0].memoryId).toBe('rolled');
      throw new Error('roll back');
    })).rejects.toThrow('roll back');
    await agree('after a rollback');
    const after = await mirrored.search({ spaceId: space, vector: rolled, k: 3, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore: 0.4 });
    expect(after.map((h) => h.memoryId)).not.toContain('rolled');

    // A restart's warm-up reads the spaces past 1,000 vectors (this one), and answers the same.
    const restarted = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY });
    expect(await restarted.warmMirror(AbortSignal.abort())).toBe(0);
    expect(restarted.mirrorBytes).toBe(0);
    expect(await restarted.warmMirror()).toBe(1);
    const held = restarted.mirrorBytes!;
    expect(held).toBeGreaterThan(1_000 * DIM * 4);
    for (const q of queries.slice(0, 4)) for (const ask of asks(q)) expect(await restarted.search(ask)).toEqual(await mirrored.search(ask));
    expect(restarted.mirrorBytes).toBe(held);
  }, 240_000);

  it('finds the m-th smallest distance as a sort would, NaN last (PostgreSQL\'s order)', () => {
    const r = rng(5);
    const xs = Float64Array.from({ length: 2_000 }, () => r());
    xs[7] = Number.NaN;
    xs[11] = xs[12] = xs[13] = 0.5; // ties
    const sorted = Float64Array.from(xs, (x) => (Number.isNaN(x) ? Number.POSITIVE_INFINITY : x)).sort();
    for (const m of [1, 2, 50, 200, 1_999, 2_000]) expect(smallest(xs, m)).toBe(sorted[m - 1]);
  });

  it('counts the rows reaching minScore as the exact ranking does, computing exactly only those near the boundary', () => {
    const r = rng(9);
    const n = 400;
    const drift = 5e-4;
    const ids = Array.from({ length: n }, (_, i) => `m${i}`);
    for (let trial = 0; trial < 30; trial++) {
      const exact = Float64Array.from({ length: n }, () => 1.3 * r());
      for (let i = 0; i < 30; i++) exact[Math.floor(r() * n)] = exact[Math.floor(r() * n)]; // ties
      // Within drift of the exact distance, either side (Ranked's contract for its cheaper pass).
      const approx = exact.map((x) => x + (2 * r() - 1) * drift);
      let computed = 0;
      const ranked = new Ranked(ids, approx, (j) => { computed++; return exact[j]!; }, drift, true, () => false);
      // The reference: every distance exact, ranked in growing prefixes (NearestRows.reaching).
      const plain = new Ranked(ids, exact, (j) => exact[j]!, 0, true, () => false);
      const at = Math.floor(r() * n);
      // A boundary on a row's own score, a hair either side of it, and bounds no row or every row reaches.
      for (const minScore of [0.4, 1 - exact[at]!, 1 - exact[at]! + 1e-12, 1 - exact[at]! - 1e-12, -0.5, 1.5]) {
        computed = 0;
        expect(ranked.reaching(minScore, 12), `trial ${trial}, minScore ${minScore}`).toBe(plain.reaching(minScore, 12));
        expect(computed).toBeLessThan(n / 10);
      }
    }
  });

  it('lets the least recently searched spaces go past its memory bound, and reads them again when searched', async () => {
    const tight = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, mirrorMaxBytes: 1 });
    const spaces = [await seed.space(), await seed.space()];
    const vs = spaces.map((_, i) => unitVectors(50, 60 + i, DIM));
    for (const [i, space] of spaces.entries()) await seed.put(space, vs[i]);
    const roomy = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY });
    for (const round of [0, 1]) {
      for (const [i, space] of spaces.entries()) {
        const ask = { spaceId: space, vector: near(vs[i][round], 0.2, 70 + i), k: 5, statuses: ['ACTIVE' as const], kind: 'STATEMENT' as const };
        expect(await tight.search(ask)).toEqual(await sql.search(ask));
        expect(await roomy.search(ask)).toEqual(await sql.search(ask));
      }
    }
    // Both spaces are held by the roomy mirror, one (the last searched) by the tight one.
    expect(tight.mirrorBytes!).toBeGreaterThan(0);
    expect(roomy.mirrorBytes!).toBe(2 * tight.mirrorBytes!);
  });

  it('warms a space of several chunks into arrays sized once (no copy per growth step), with room for the rows written next', async () => {
    const space = await seed.space();
    const vs = unitVectors(2_600, 90, DIM);
    for (let i = 0; i < vs.length; i += 650) await seed.put(space, vs.slice(i, i + 650));
    const fresh = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY });
    const grow = vi.spyOn(Slots.prototype as unknown as { grow(rows: number): void }, 'grow');
    try {
      // Every space past 1,000 vectors (this one: three chunks of 1,000 rows), one allocation each (the old growth by half again took four here).
      const warmed = await fresh.warmMirror();
      expect(warmed).toBeGreaterThanOrEqual(1);
      expect(grow).toHaveBeenCalledTimes(warmed);
      const ask = { spaceId: space, vector: near(vs[5], 0.2, 91), k: 10, statuses: ['ACTIVE' as const], kind: 'STATEMENT' as const };
      expect(await fresh.search(ask)).toEqual(await sql.search(ask));
      expect(grow).toHaveBeenCalledTimes(warmed);
      const held = fresh.mirrorBytes!;
      // An eighth to spare: the next rows fit without a copy.
      await seed.put(space, unitVectors(300, 92, DIM));
      const again = { ...ask, vector: near(vs[7], 0.2, 93) };
      expect(await fresh.search(again)).toEqual(await sql.search(again));
      expect(grow).toHaveBeenCalledTimes(warmed);
      expect(fresh.mirrorBytes!).toBe(held + 60 * 300);
    } finally {
      grow.mockRestore();
    }
  }, 240_000);

  it('the sign-bit first pass keeps the rows nearest in Hamming distance, whatever the words a row (1 to 16)', () => {
    const hamming = (a: Uint32Array, b: Uint32Array) => {
      let d = 0;
      for (let j = 0; j < a.length; j++) for (let x = (a[j]! ^ b[j]!) >>> 0; x !== 0; x >>>= 1) d += x & 1;
      return d;
    };
    for (const dim of [512, 384, 100, 33, 3]) {
      const rows = unitVectors(400, 60 + dim, dim);
      const q = near(rows[17]!, 0.5, 61 + dim);
      const d = rows.map((v) => hamming(pack(v), pack(q)));
      const window = 40;
      // the smallest distance that at least `window` rows reach; every row nearer, and rows at it up to twice the window, in slot order
      const cut = [...d].sort((x, y) => x - y)[window - 1]!;
      const nearer = d.flatMap((x, i) => (x < cut ? [i] : []));
      const atCut = d.flatMap((x, i) => (x === cut ? [i] : []));
      expect(nearer.length).toBeLessThan(window);
      expect(slotsOf(rows).window(pack(q), window)).toEqual([...nearer, ...atCut].slice(0, 2 * window));
    }
  });

  it('holds a space whole only once it was read to its end: not while its first read is under way or after a warm-up stopped half-way', async () => {
    const space = await seed.space();
    const vs = unitVectors(1_500, 95, DIM);
    for (let i = 0; i < vs.length; i += 750) await seed.put(space, vs.slice(i, i + 750));
    const mirror = new VectorMirror(() => db.rollbacks ?? 0);
    // stopped after its first chunk of 1,000 rows
    let asked = 0;
    await mirror.warm(db, 1_000, () => asked++ > 0);
    expect(mirror.holdsSpace(space, 'STATEMENT')).toBe(false);
    // a search reads the rest (past the seq held), and from then on the space is held whole
    await mirror.nearest(db, space, 'STATEMENT', vs[3], 200);
    expect(mirror.holdsSpace(space, 'STATEMENT')).toBe(true);
    expect(mirror.holdsSpace(space, 'INFERENCE')).toBe(false);
    mirror.removeSpace(space);
    expect(mirror.holdsSpace(space, 'STATEMENT')).toBe(false);
  }, 120_000);
});
