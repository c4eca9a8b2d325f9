/**
 * The VectorIndex contract, written once and run for every engine
 * (narrow with ENGINES=pgvector,lancedb,qdrant). Skips only what a
 * capability flag says the engine does not offer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VectorIndex } from '../../src/ports/vector-index.js';
import { contractEngines, cosineOf, l2Of, near, Seeder, unitVectors, type OpenEngine } from './harness.js';

for (const fx of contractEngines()) {
  const suite = fx.skip ? describe.skip : describe;
  suite(`VectorIndex contract: ${fx.label}${fx.skip ? ' (SKIPPED: server not configured)' : ''}`, () => {
    let e: OpenEngine;
    let index: VectorIndex;
    let seed: Seeder;

    beforeAll(async () => {
      e = await fx.open();
      index = e.index;
      seed = new Seeder(e.db, index);
    });
    afterAll(async () => {
      await e?.close();
    });

    it('declares its capabilities', () => {
      expect(index.name).toBe(fx.engine);
      expect(index.capabilities.exactSearch).toBe(true);
      expect(index.capabilities.metrics).toContain('cosine');
      expect(index.capabilities.transactional).toBe(fx.engine === 'pgvector');
    });

    it('upserts, finds, replaces and removes vectors', async () => {
      const space = await seed.space();
      const vs = unitVectors(20, 1);
      const items = await seed.put(space, vs);
      const hits = await index.search({ spaceId: space, vector: vs[3], k: 5, exact: true });
      expect(hits[0].memoryId).toBe(items[3].memoryId);
      expect(hits[0].score).toBeCloseTo(1, 4);
      expect(hits).toHaveLength(5);

      // Upsert of an existing id replaces its vector, never duplicates it.
      const moved = { ...items[3], vector: vs[7] };
      if (index.capabilities.transactional) await e.db.transaction((tx) => index.upsert([moved], tx));
      else await index.upsert([moved]);
      const again = await index.search({ spaceId: space, vector: vs[7], k: 3, exact: true });
      expect(new Set(again.slice(0, 2).map((h) => h.memoryId))).toEqual(new Set([items[3].memoryId, items[7].memoryId]));
      expect(await e.count(space)).toBe(20);

      await index.remove([items[3].memoryId, items[7].memoryId]);
      const after = await index.search({ spaceId: space, vector: vs[7], k: 20, exact: true });
      expect(after.map((h) => h.memoryId)).not.toContain(items[3].memoryId);
      expect(after.map((h) => h.memoryId)).not.toContain(items[7].memoryId);
      expect(after).toHaveLength(18);
      await index.remove([]); // a no-op, not an error
    });

    it('never returns a vector of another space', async () => {
      const a = await seed.space();
      const b = await seed.space();
      const vs = unitVectors(10, 2);
      const inA = await seed.put(a, vs);
      const inB = await seed.put(b, vs); // the very same vectors in another space
      const idsB = new Set(inB.map((i) => i.memoryId));
      for (const v of vs.slice(0, 3)) {
        const hits = await index.search({ spaceId: a, vector: v, k: 50, exact: true });
        expect(hits).toHaveLength(10);
        expect(hits.some((h) => idsB.has(h.memoryId))).toBe(false);
        const approx = await index.search({ spaceId: a, vector: v, k: 50 });
        expect(approx.some((h) => idsB.has(h.memoryId))).toBe(false);
      }
      expect(inA).toHaveLength(10);
    });

    it('filters by status', async () => {
      const space = await seed.space();
      const vs = unitVectors(12, 3);
      const items = await seed.put(space, vs);
      const muted = items.slice(0, 4).map((i) => i.memoryId);
      const superseded = items.slice(4, 6).map((i) => i.memoryId);
      await seed.setStatus(muted, 'MUTED');
      await seed.setStatus(superseded, 'SUPERSEDED');
      const active = await index.search({ spaceId: space, vector: vs[0], k: 50, exact: true });
      expect(active).toHaveLength(6);
      expect(active.some((h) => muted.includes(h.memoryId) || superseded.includes(h.memoryId))).toBe(false);
      const onlyMuted = await index.search({ spaceId: space, vector: vs[0], k: 50, statuses: ['MUTED'], exact: true });
      expect(new Set(onlyMuted.map((h) => h.memoryId))).toEqual(new Set(muted));
      expect(onlyMuted[0].memoryId).toBe(items[0].memoryId);
      const both = await index.search({ spaceId: space, vector: vs[0], k: 50, statuses: ['ACTIVE', 'SUPERSEDED'], exact: true });
      expect(both).toHaveLength(8);
      // Back to active: found again.
      await seed.setStatus(muted, 'ACTIVE');
      const back = await index.search({ spaceId: space, vector: vs[0], k: 1, exact: true });
      expect(back[0].memoryId).toBe(items[0].memoryId);
    });

    it('filters by kind', async () => {
      const space = await seed.space();
      const vs = unitVectors(6, 4);
      const statements = await seed.put(space, vs.slice(0, 3));
      const inferences = await seed.put(space, vs.slice(3), { kind: 'INFERENCE' });
      const st = await index.search({ spaceId: space, vector: vs[4], k: 10, exact: true });
      expect(new Set(st.map((h) => h.memoryId))).toEqual(new Set(statements.map((i) => i.memoryId)));
      const inf = await index.search({ spaceId: space, vector: vs[4], k: 10, kind: 'INFERENCE', exact: true });
      expect(inf[0].memoryId).toBe(inferences[1].memoryId);
      expect(new Set(inf.map((h) => h.memoryId))).toEqual(new Set(inferences.map((i) => i.memoryId)));
    });

    it('scores cosine exactly and orders by score, descending', async () => {
      const space = await seed.space();
      const base = unitVectors(1, 5)[0];
      // Graded neighbours of one vector plus random ones: a known order.
      const vs = [...[0.05, 0.2, 0.4, 0.7, 1.0, 1.5].map((n, i) => near(base, n, 50 + i)), ...unitVectors(30, 6)];
      const items = await seed.put(space, vs);
      const hits = await index.search({ spaceId: space, vector: base, k: 10, exact: true });
      expect(hits.slice(0, 6).map((h) => h.memoryId)).toEqual(items.slice(0, 6).map((i) => i.memoryId));
      const byId = new Map(items.map((i) => [i.memoryId, i.vector]));
      for (let i = 0; i < hits.length; i++) {
        expect(hits[i].score).toBeCloseTo(cosineOf(base, byId.get(hits[i].memoryId)!), 4);
        if (i > 0) expect(hits[i].score).toBeLessThanOrEqual(hits[i - 1].score);
      }
      const approx = await index.search({ spaceId: space, vector: base, k: 10 });
      for (let i = 1; i < approx.length; i++) expect(approx[i].score).toBeLessThanOrEqual(approx[i - 1].score);
    });

    it('scores L2 as the negative Euclidean distance (when the engine offers L2)', async (ctx) => {
      if (!index.capabilities.metrics.includes('l2')) ctx.skip();
      const space = await seed.space();
      // Different lengths: the L2 order differs from the cosine order.
      const vs = unitVectors(15, 7).map((v, i) => v.map((x) => x * (0.5 + (i % 5) * 0.4)) as Float32Array);
      const items = await seed.put(space, vs);
      const q = vs[2].map((x) => x * 1.1) as Float32Array;
      const hits = await index.search({ spaceId: space, vector: q, k: 15, metric: 'l2', exact: true });
      const expected = items.map((i) => ({ id: i.memoryId, s: -l2Of(q, i.vector) })).sort((a, b) => b.s - a.s);
      expect(hits.map((h) => h.memoryId)).toEqual(expected.map((x) => x.id));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i].s, 3));
    });

    it(`takes a large batch (${fx.largeBatch} vectors) in one upsert and still answers exactly`, async () => {
      const space = await seed.space();
      const vs = unitVectors(fx.largeBatch, 8);
      const items = await seed.put(space, vs);
      expect(await e.count(space)).toBe(fx.largeBatch);
      const q = near(vs[567], 0.3, 99);
      const hits = await index.search({ spaceId: space, vector: q, k: 10, exact: true });
      const expected = items.map((i) => ({ id: i.memoryId, s: cosineOf(q, i.vector) })).sort((a, b) => b.s - a.s).slice(0, 10);
      expect(hits.map((h) => h.memoryId)).toEqual(expected.map((x) => x.id));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(expected[i].s, 4));
    }, 300_000);

    it('drops a whole space and nothing else', async () => {
      const a = await seed.space();
      const b = await seed.space();
      const vs = unitVectors(8, 9);
      await seed.put(a, vs);
      await seed.put(b, vs);
      await index.removeSpace(a);
      expect(await index.search({ spaceId: a, vector: vs[0], k: 10, exact: true })).toHaveLength(0);
      expect(await index.search({ spaceId: b, vector: vs[0], k: 10, exact: true })).toHaveLength(8);
    });

    it('keeps its data across a restart', async () => {
      const space = await seed.space();
      const vs = unitVectors(5, 10);
      const items = await seed.put(space, vs);
      const reopened = await e.reopen();
      const hits = await reopened.search({ spaceId: space, vector: vs[2], k: 1, exact: true });
      expect(hits[0].memoryId).toBe(items[2].memoryId);
    });
  });
}
