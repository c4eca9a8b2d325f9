/**
 * One LanceDB directory used by two instances of one server (`shared`: what src/engines.ts sets
 * when the store is a PostgreSQL server). Each instance holds its own handle on the table. Before,
 * a handle read the version it had last seen: rows the other instance wrote were missing from its
 * searches and counts, and its compactions, planned on that version, were preempted by the other's
 * commits every time ("Retryable commit conflict"), so they never ran.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LanceDbIndex } from '../../adapters/lancedb/lancedb-index.js';
import type { IndexedVector } from '../../src/ports/vector-index.js';
import { unitVectors } from './harness.js';

const DIMS = 32;
const only = process.env.ENGINES?.split(',').map((x) => x.trim());
const run = !only || only.includes('lancedb') ? describe : describe.skip;

function items(spaceId: string, vs: Float32Array[]): IndexedVector[] {
  return vs.map((vector) => ({ memoryId: randomUUID(), spaceId, kind: 'STATEMENT', status: 'ACTIVE', vector }));
}

run('LanceDB: one directory, two instances', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'engram-lance-shared-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("each sees the other's writes and erasures, and both compact", { timeout: 120_000 }, async () => {
    const warnings: string[] = [];
    const open = async () => {
      const index = new LanceDbIndex({
        dir, embedderId: 'shared', dimensions: DIMS, shared: true,
        // compactions run when the test says, not on a schedule
        compaction: { everyWrites: 0, everyMs: 0, keepVersionsMs: 0 },
        onWarning: (message, cause) => warnings.push(`${message}: ${String((cause as Error)?.cause ?? cause)}`),
      });
      await index.init();
      return index;
    };
    const a = await open();
    const b = await open();
    try {
      const space = randomUUID();
      const written = items(space, unitVectors(6, 7, DIMS));
      await a.upsert(written.slice(0, 3));
      // b opened its table before a wrote: it reads a's version all the same
      expect(await b.count(space)).toBe(3);
      const hit = await b.search({ spaceId: space, vector: written[1]!.vector, k: 1, exact: true });
      expect(hit.map((h) => h.memoryId)).toEqual([written[1]!.memoryId]);

      await b.upsert(written.slice(3));
      expect(await a.count(space)).toBe(6);
      // both compact, one after the other, each on the version the other left
      await a.optimize();
      await b.upsert(items(space, unitVectors(1, 8, DIMS)));
      await b.optimize();
      await a.optimize();
      expect(warnings).toEqual([]);
      expect(a.compactions).toBeGreaterThanOrEqual(2);
      expect(b.compactions).toBe(1);

      // a erases (its files pruned, unverified ones included); b writes and reads on
      await a.remove([written[0]!.memoryId]);
      await b.upsert(items(space, unitVectors(1, 9, DIMS)));
      expect(await b.count(space)).toBe(7);
      const after = await b.search({ spaceId: space, vector: written[0]!.vector, k: 10, exact: true });
      expect(after.map((h) => h.memoryId)).not.toContain(written[0]!.memoryId);
      expect(warnings).toEqual([]);
    } finally {
      await a.close();
      await b.close();
    }
    // closing compacts each once more; neither failed
    expect(warnings).toEqual([]);
  });
});
