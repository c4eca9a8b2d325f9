/**
 * pgvector's quantised first pass (sign bits ranked by Hamming distance, then an
 * exact rerank): past QUANTISED_ABOVE vectors in a space, recognition's searches
 * go through it. It must return every planted restatement, exact distances, the
 * same nearest neighbours as the exact scan, and fall back to the exact scan when
 * the statuses asked for are rare in the space. The exact scan, which reads statuses
 * for its nearest window only, returns the exact top k of the wanted statuses either way.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { migrate } from '../../src/store/migrations.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { PgvectorIndex } from '../../adapters/pgvector/pgvector-index.js';
import { testDatabases } from '../helpers/db.js';
import { cosineOf, near, Seeder, unitVectors } from '../contract/harness.js';

const DIM = 512;
const N = 1_500;

for (const target of testDatabases()) {
  describe(`pgvector quantised search (${target.name})`, () => {
    let db: SqlClient;
    let quantised: PgvectorIndex;
    let exact: PgvectorIndex;
    let seed: Seeder;
    /** In batches of 300: one long PGlite statement would hold the test worker's event loop. */
    const putAll = async (space: string, vs: Float32Array[]) => {
      const out = [];
      for (let i = 0; i < vs.length; i += 300) out.push(...(await seed.put(space, vs.slice(i, i + 300))));
      return out;
    };
    beforeAll(async () => {
      db = await target.open();
      await migrate(db, { dimensions: DIM });
      // No HNSW build here (shared tables on the server); quantised from 1,000 vectors, and the same store scanned exactly.
      quantised = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, quantisedAbove: 1_000 });
      // The reference is SQL's exact scan on both stores (no in-process vector mirror, the PGlite default).
      exact = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, quantisedAbove: Number.POSITIVE_INFINITY, mirror: false });
      seed = new Seeder(db, quantised);
    }, 120_000);
    afterAll(async () => {
      await db?.close();
    });

    it('misses no planted restatement, and finds every neighbour recognition weighs, with exact distances', async () => {
      const space = await seed.space();
      const vs = unitVectors(N, 15, DIM);
      const items = await putAll(space, vs);
      let missed = 0;
      for (let j = 0; j < 40; j++) {
        const of = Math.floor(((j + 0.5) * N) / 40);
        const q = near(vs[of], 0.2, 1000 + j); // cosine ~0.98: a restatement
        const hits = await quantised.search({ spaceId: space, vector: q, k: 10, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore: 0.4 });
        if (hits[0]?.memoryId !== items[of].memoryId) missed++;
        expect(hits[0].score).toBeCloseTo(cosineOf(q, vs[of]), 4);
      }
      expect(missed).toBe(0);
      // Neighbours at the cosines the recognition thresholds weigh (0.95 down to 0.6), among the random rest.
      for (let j = 0; j < 5; j++) {
        const q = unitVectors(1, 500 + j, DIM)[0];
        const planted = await seed.put(space, [0.33, 0.62, 0.88, 1.15, 1.33].map((noise, i) => near(q, noise, 600 + 10 * j + i)));
        const hits = await quantised.search({ spaceId: space, vector: q, k: 10, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore: 0.4 });
        const truth = await exact.search({ spaceId: space, vector: q, k: 10, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true });
        expect(hits.slice(0, 5).map((h) => h.memoryId)).toEqual(planted.map((p) => p.memoryId));
        expect(hits.slice(0, 5).map((h) => h.memoryId)).toEqual(truth.slice(0, 5).map((h) => h.memoryId));
        hits.slice(0, 5).forEach((h, i) => expect(h.score).toBeCloseTo(truth[i].score, 5));
      }
    }, 120_000);

    it('finds the neighbours of the wanted statuses when those are rare in the space', async () => {
      const space = await seed.space();
      const vs = unitVectors(N, 16, DIM);
      const items = await putAll(space, vs);
      // Three neighbours of the query (cosines ~0.98 down to ~0.7) and two far rows stay active; the other 1,500, the nearest included, are muted.
      const q = near(vs[5], 0.2, 7);
      const neighbours = await seed.put(space, [0.25, 0.6, 0.9].map((noise, i) => near(q, noise, 70 + i)));
      const keep = [...neighbours, items[700], items[1400]];
      await seed.setStatus(items.filter((i) => !keep.includes(i)).map((i) => i.memoryId), 'MUTED');
      const ask = { spaceId: space, vector: q, k: 10, statuses: ['ACTIVE' as const], kind: 'STATEMENT' as const, exact: true };
      const hits = await quantised.search({ ...ask, minScore: 0.4 });
      const truth = await exact.search(ask);
      expect(truth.map((h) => h.memoryId).sort()).toEqual(keep.map((i) => i.memoryId).sort());
      // Recognition weighs nothing below minScore (the port lets an engine leave those out): the rest is the exact answer.
      expect(hits.filter((h) => h.score >= 0.4)).toEqual(truth.filter((h) => h.score >= 0.4));
      expect(hits.slice(0, 3).map((h) => h.memoryId)).toEqual(neighbours.map((n) => n.memoryId));
    }, 120_000);

    it('the exact scan reads statuses late and still returns the exact top k of the wanted ones, muted nearest or not', async () => {
      const space = await seed.space();
      const q = unitVectors(1, 900, DIM)[0];
      // 120 neighbours among 200 far vectors; the 80 nearest of them muted.
      const neighbours = await seed.put(space, Array.from({ length: 120 }, (_, i) => near(q, 0.1 + i * 0.01, 1000 + i)));
      const far = await seed.put(space, unitVectors(200, 901, DIM));
      const byScore = [...neighbours, ...far].map((it) => ({ id: it.memoryId, score: cosineOf(q, it.vector) })).sort((a, b) => b.score - a.score);
      const mutedIds = new Set(byScore.slice(0, 80).map((x) => x.id));
      await seed.setStatus([...mutedIds], 'MUTED');
      const truth = (muted: boolean, k: number) => byScore.filter((x) => mutedIds.has(x.id) === muted).slice(0, k);
      const search = (status: 'ACTIVE' | 'MUTED', k: number) =>
        exact.search({ spaceId: space, vector: q, k, statuses: [status], kind: 'STATEMENT', exact: true });
      // ACTIVE, k = 10: the window (the 60 nearest) holds none, so it scans again with the statuses joined.
      // MUTED: the window holds them, the first scan answers.
      for (const [status, muted] of [['ACTIVE', false], ['MUTED', true]] as const) {
        const hits = await search(status, 10);
        expect(hits.map((h) => h.memoryId)).toEqual(truth(muted, 10).map((x) => x.id));
        hits.forEach((h, i) => expect(h.score).toBeCloseTo(truth(muted, 10)[i].score, 5));
      }
    }, 120_000);

    it('ranks a window whose every row reaches minScore exactly in the process, not by a scan in SQL', async () => {
      const space = await seed.space();
      const q = unitVectors(1, 950, DIM)[0];
      // 1,200 rows around the query (cosine ~0.9 down to ~0.67: all past minScore, far more than the
      // sign-bit window of 200), and 300 random ones: the window cannot tell where the top 10 ends.
      await putAll(space, [...Array.from({ length: 1_200 }, (_, i) => near(q, 0.5 + (i % 7) * 0.1, 5_000 + i)), ...unitVectors(300, 951, DIM)]);
      const mirrored = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, quantisedAbove: 1_000, mirror: true });
      const ask = { spaceId: space, vector: q, k: 10, statuses: ['ACTIVE' as const], kind: 'STATEMENT' as const, exact: true };
      await mirrored.search({ ...ask, minScore: 0.4 }); // the copy read
      const spy = vi.spyOn(db, 'query');
      const hits = await mirrored.search({ ...ask, minScore: 0.4 });
      const scans = spy.mock.calls.filter(([sql]) => /embedding <=> \$1::vector as d/.test(String(sql)));
      spy.mockRestore();
      const truth = await exact.search(ask);
      expect(hits.map((h) => h.memoryId)).toEqual(truth.map((h) => h.memoryId));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(truth[i].score, 5));
      expect(scans).toHaveLength(0);
    }, 120_000);
  });
}
