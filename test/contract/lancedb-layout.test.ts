/**
 * LanceDB's table layouts (adapters/lancedb/lancedb-schema.ts): new tables hold the unit
 * direction and the length, and answer cosine and L2 exactly from them; a table written
 * before that layout (the vector as given, no `norm`) is still read, searched and written
 * as it is until a reset (reindex) recreates it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as lancedb from '@lancedb/lancedb';
import { LanceDbIndex } from '../../adapters/lancedb/lancedb-index.js';
import { tableNameFor, toRow, vectorSchema } from '../../adapters/lancedb/lancedb-schema.js';
import { eachVector, signWindow } from '../../adapters/lancedb/lancedb-search.js';
import { Field, FixedSizeList, Float32, makeData, makeVector } from 'apache-arrow';
import type { IndexedVector } from '../../src/ports/vector-index.js';
import { cosineOf, l2Of, near, unitVectors } from './harness.js';

const DIMS = 32;
const only = process.env.ENGINES?.split(',').map((x) => x.trim());
const run = !only || only.includes('lancedb') ? describe : describe.skip;

/** Vectors of different lengths (0.3 to 2.7): cosine and L2 order them differently. */
function scaled(n: number, seed: number): Float32Array[] {
  return unitVectors(n, seed, DIMS).map((v, i) => v.map((x) => x * (0.3 + (i % 7) * 0.4)) as Float32Array);
}

function items(spaceId: string, vs: Float32Array[]): IndexedVector[] {
  return vs.map((vector) => ({ memoryId: randomUUID(), spaceId, kind: 'STATEMENT', status: 'ACTIVE', vector }));
}

async function expectExact(index: LanceDbIndex, space: string, stored: IndexedVector[], q: Float32Array): Promise<void> {
  const cos = await index.search({ spaceId: space, vector: q, k: 10, exact: true });
  const wantCos = stored.map((i) => ({ id: i.memoryId, s: cosineOf(q, i.vector) })).sort((a, b) => b.s - a.s).slice(0, 10);
  expect(cos.map((h) => h.memoryId)).toEqual(wantCos.map((x) => x.id));
  cos.forEach((h, i) => expect(h.score).toBeCloseTo(wantCos[i].s, 4));
  // Recognition's request: what scores at least minScore is the exact answer (less may come too).
  const rec = (await index.search({ spaceId: space, vector: q, k: 10, exact: true, minScore: 0.4 })).filter((h) => h.score >= 0.4);
  expect(rec.map((h) => h.memoryId)).toEqual(wantCos.filter((x) => x.s >= 0.4).map((x) => x.id));
  const l2 = await index.search({ spaceId: space, vector: q, k: 10, metric: 'l2', exact: true });
  const wantL2 = stored.map((i) => ({ id: i.memoryId, s: -l2Of(q, i.vector) })).sort((a, b) => b.s - a.s).slice(0, 10);
  expect(l2.map((h) => h.memoryId)).toEqual(wantL2.map((x) => x.id));
  l2.forEach((h, i) => expect(h.score).toBeCloseTo(wantL2[i].s, 3));
}

run('LanceDB table layouts', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engram-lance-layout-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('stores the unit direction and the length, and scores cosine and L2 exactly from them', async () => {
    const index = new LanceDbIndex({ dir: join(dir, 'unit'), embedderId: 'layout', dimensions: DIMS, compaction: { everyWrites: 0, everyMs: 0 } });
    await index.init();
    const space = randomUUID();
    const stored = items(space, scaled(40, 3));
    // Two writes, two fragments: the L2 scan reads more than one Arrow batch.
    await index.upsert(stored.slice(0, 25));
    await index.upsert(stored.slice(25));
    const db = await lancedb.connect(join(dir, 'unit'));
    const t = await db.openTable(index.tableName);
    const rows = (await t.query().select(['memory_id', 'vector', 'norm']).toArray()) as { memory_id: string; vector: { toArray(): Float32Array }; norm: number }[];
    const byId = new Map(stored.map((i) => [i.memoryId, i.vector]));
    for (const r of rows) {
      const v = byId.get(r.memory_id)!;
      const u = Float32Array.from(r.vector.toArray());
      expect(r.norm).toBeCloseTo(Math.hypot(...v), 4);
      expect(Math.hypot(...u)).toBeCloseTo(1, 5);
      expect(cosineOf(u, v)).toBeCloseTo(1, 5);
    }
    t.close();
    db.close();
    await expectExact(index, space, stored, scaled(9, 4)[8]);
    // The approximate path (a flat scan below the ANN threshold) answers the same.
    const q = scaled(3, 5)[2];
    const approx = await index.search({ spaceId: space, vector: q, k: 5 });
    expect(approx.map((h) => h.memoryId)).toEqual((await index.search({ spaceId: space, vector: q, k: 5, exact: true })).map((h) => h.memoryId));
    // A zero vector has no direction: cosine 0 (src/core/vectors.ts), not NaN; L2 is its length.
    const zero = items(space, [new Float32Array(DIMS)])[0];
    await index.upsert([zero]);
    const all = await index.search({ spaceId: space, vector: q, k: 50, exact: true });
    expect(all.find((h) => h.memoryId === zero.memoryId)?.score).toBe(0);
    const l2 = await index.search({ spaceId: space, vector: q, k: 50, metric: 'l2', exact: true });
    expect(l2.find((h) => h.memoryId === zero.memoryId)?.score).toBeCloseTo(-Math.hypot(...q), 4);
    await index.close();
  });

  it('reads, searches and writes a table of the older layout as it is, and a reset makes it unit', async () => {
    const path = join(dir, 'old');
    const space = randomUUID();
    const first = items(space, scaled(30, 6));
    // A table as the adapter wrote it before the unit layout: vectors as given, no norm column.
    const db = await lancedb.connect(path);
    const schema = vectorSchema(DIMS, false);
    await db.createTable(tableNameFor('layout'), lancedb.makeArrowTable(first.map((i) => toRow(i, false)) as never, { schema }));
    db.close();
    const index = new LanceDbIndex({ dir: path, embedderId: 'layout', dimensions: DIMS, compaction: { everyWrites: 0, everyMs: 0 } });
    await index.init();
    const more = items(space, scaled(10, 7));
    await index.upsert(more);
    await expectExact(index, space, [...first, ...more], scaled(5, 8)[4]);
    const check = await lancedb.connect(path);
    const t = await check.openTable(index.tableName);
    expect((await t.schema()).fields.map((f) => f.name)).not.toContain('norm');
    await index.reset();
    expect((await (await check.openTable(index.tableName)).schema()).fields.map((f) => f.name)).toContain('norm');
    await index.upsert(first);
    await expectExact(index, space, first, scaled(5, 8)[4]);
    t.close();
    check.close();
    await index.close();
  });

  it('recognition (exact with minScore) ranks by sign bits, reranks exactly, and scans exactly when the window is all above minScore', async () => {
    const index = new LanceDbIndex({ dir: join(dir, 'bits'), embedderId: 'layout', dimensions: DIMS, compaction: { everyWrites: 0, everyMs: 0 } });
    await index.init();
    const space = randomUUID();
    const base = unitVectors(1, 20, DIMS)[0];
    // Graded neighbours of one vector among more random rows than the window holds.
    const vs = [...[0.1, 0.3, 0.6, 0.9, 1.3].map((n, i) => near(base, n, 30 + i)), ...unitVectors(signWindow(10) + 100, 21, DIMS)];
    const stored = items(space, vs);
    await index.upsert(stored);
    // Another space holding the same vectors stays out of the answer.
    await index.upsert(items(randomUUID(), vs));
    const truth = (q: Float32Array) => stored.map((i) => ({ id: i.memoryId, s: cosineOf(q, i.vector) })).sort((a, b) => b.s - a.s);
    for (const minScore of [0.4, 0.2]) {
      const hits = await index.search({ spaceId: space, vector: base, k: 10, exact: true, minScore });
      const want = truth(base).filter((x) => x.s >= minScore).slice(0, 10);
      expect(want.length).toBeGreaterThan(1);
      expect(hits.map((h) => h.memoryId)).toEqual(want.map((x) => x.id));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(want[i].s, 4));
    }
    // Rows whose signs all match the query's but which point elsewhere fill the window (Hamming
    // distance 0), while the nearest row has every small component's sign flipped: with every row of
    // the window above minScore, the exact scan answers, and finds it.
    const q = new Float32Array(DIMS).map((_, j) => (j === 0 ? 10 : ((j % 3) + 1) * 0.1 * (j % 2 ? 1 : -1)));
    const flipped = q.map((x, j) => (j === 0 ? x : -x));
    const decoys = unitVectors(signWindow(10) + 20, 22, DIMS).map((v) => v.map((x, j) => (j === 0 ? 0.01 : Math.sign(q[j]) * Math.abs(x))) as Float32Array);
    const trap = randomUUID();
    const trapItems = items(trap, [flipped, ...decoys]);
    await index.upsert(trapItems);
    const hits = await index.search({ spaceId: trap, vector: q, k: 10, exact: true, minScore: -1 });
    expect(hits[0].memoryId).toBe(trapItems[0].memoryId);
    expect(hits[0].score).toBeCloseTo(cosineOf(q, flipped), 4);
    expect(hits).toHaveLength(10);
    await index.close();
  });
});

describe('LanceDB: reading vectors out of Arrow columns', () => {
  it('reads every row of a sliced or many-chunk fixed-size-list column at its own values', () => {
    const dim = 5;
    const rows = 40;
    const flat = Float32Array.from({ length: rows * dim }, (_, i) => i + 0.5);
    const type = new FixedSizeList(dim, new Field('item', new Float32()));
    const child = makeData({ type: new Float32(), length: rows * dim, data: flat });
    const whole = makeVector(makeData({ type, length: rows, child }));
    const expectRows = (column: typeof whole, first: number) => {
      const seen: number[][] = [];
      eachVector(column, dim, (i, values, at) => { seen[i] = [...values.subarray(at, at + dim)]; });
      expect(seen).toHaveLength(column.length);
      seen.forEach((v, i) => expect(v, `row ${i}`).toEqual([...flat.subarray((first + i) * dim, (first + i + 1) * dim)]));
    };
    expectRows(whole, 0);
    expectRows(whole.slice(7, 30), 7);
    // two chunks, the second starting mid-column, then a slice across the seam
    const chunked = whole.slice(0, 13).concat(whole.slice(13, 40));
    expect(chunked.data.length).toBe(2);
    expectRows(chunked, 0);
    expectRows(chunked.slice(9, 35), 9);
  });
});
