/**
 * LanceDB-only duties the port does not show: compaction on a schedule and
 * the ANN index built past a size, against a real LanceDB directory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as lancedb from '@lancedb/lancedb';
import { LanceDbIndex } from '../../adapters/lancedb/lancedb-index.js';
import { sqlIn, sqlString, tableNameFor } from '../../adapters/lancedb/lancedb-schema.js';
import type { IndexedVector } from '../../src/ports/vector-index.js';
import { cosineOf, near, unitVectors } from './harness.js';

const DIMS = 64;
const only = process.env.ENGINES?.split(',').map((x) => x.trim());
const run = !only || only.includes('lancedb') ? describe : describe.skip;

function items(spaceId: string, vs: Float32Array[]): IndexedVector[] {
  return vs.map((vector) => ({ memoryId: randomUUID(), spaceId, kind: 'STATEMENT', status: 'ACTIVE', vector }));
}

run('LanceDB maintenance', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engram-lance-maint-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('quotes identifiers in filters and refuses control characters', () => {
    expect(sqlString("a'b")).toBe("'a''b'");
    expect(sqlIn('memory_id', ['x', "y'); drop"])).toBe("memory_id IN ('x', 'y''); drop')");
    expect(() => sqlString('a\u0000b')).toThrow();
    expect(() => sqlString('a\\b')).toThrow();
    expect(tableNameFor('use-lite/512 v1')).toBe('vectors_use-lite_512_v1');
  });

  it('compacts every N writes and prunes old versions', async () => {
    const index = new LanceDbIndex({ dir: join(dir, 'c'), embedderId: 'maint', dimensions: DIMS, compaction: { everyWrites: 5, everyMs: 0, keepVersionsMs: 0 } });
    await index.init();
    const space = randomUUID();
    for (let i = 0; i < 12; i++) await index.upsert(items(space, unitVectors(3, 100 + i, DIMS)));
    await index.optimize();
    expect(index.compactions).toBeGreaterThanOrEqual(2);
    const db = await lancedb.connect(join(dir, 'c'));
    const t = await db.openTable(index.tableName);
    // Versions older than keepVersionsMs (0) are pruned: far fewer than the 12+ writes made.
    expect((await t.listVersions()).length).toBeLessThan(6);
    expect(await t.countRows()).toBe(36);
    t.close();
    db.close();
    await index.close();
  });

  it('builds an ANN index past the threshold; approximate searches stay in the space, exact ones stay exact', async () => {
    const index = new LanceDbIndex({ dir: join(dir, 'ann'), embedderId: 'maint', dimensions: DIMS, annIndexAbove: 1_000, compaction: { everyWrites: 0, everyMs: 0 } });
    await index.init();
    const a = randomUUID();
    const b = randomUUID();
    const inA = items(a, unitVectors(1_200, 7, DIMS));
    const inB = items(b, inA.map((x) => x.vector)); // same vectors, other space
    await index.upsert([...inA, ...inB]);
    await index.optimize();
    const db = await lancedb.connect(join(dir, 'ann'));
    const t = await db.openTable(index.tableName);
    expect((await t.listIndices()).some((i) => i.columns.includes('vector'))).toBe(true);
    t.close();
    db.close();
    const idsB = new Set(inB.map((x) => x.memoryId));
    const byId = new Map(inA.map((x) => [x.memoryId, x.vector]));
    // An approximate index promises no single answer: 20 planted queries (cosine about 0.98 to
    // one vector of A) must mostly find it first, never leave space A, and report true distances
    // (refined). The index is trained afresh each run: 16 to 20 of 20 were found first in 10
    // runs here, and a run once missed the single query this test used to make. Recognition
    // never relies on this path (it asks for exact search).
    let found = 0;
    for (let i = 0; i < 20; i++) {
      const target = inA[i * 60 + 2]!;
      const qi = near(target.vector, 0.2, 100 + i);
      const hits = await index.search({ spaceId: a, vector: qi, k: 10 });
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.some((h) => idsB.has(h.memoryId))).toBe(false);
      for (const h of hits) expect(h.score).toBeCloseTo(cosineOf(qi, byId.get(h.memoryId)!), 3);
      if (hits[0]!.memoryId === target.memoryId) found++;
    }
    expect(found, 'planted neighbours found first by the ANN index').toBeGreaterThanOrEqual(14);
    const q = near(inA[42].vector, 0.2, 5);
    const exact = await index.search({ spaceId: a, vector: q, k: 10, exact: true });
    const expected = inA.map((x) => ({ id: x.memoryId, s: cosineOf(q, x.vector) })).sort((p, r) => r.s - p.s).slice(0, 10);
    expect(exact.map((h) => h.memoryId)).toEqual(expected.map((x) => x.id));
    await index.close();
  }, 180_000);
});
