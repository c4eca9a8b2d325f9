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
import { LanceDbIndex, type LanceDbOptions } from '../../adapters/lancedb/lancedb-index.js';
import type { IndexedVector } from '../../src/ports/vector-index.js';
import { unitVectors } from './harness.js';

const DIMS = 32;
const only = process.env.ENGINES?.split(',').map((x) => x.trim());
const run = !only || only.includes('lancedb') ? describe : describe.skip;

function items(spaceId: string, vs: Float32Array[]): IndexedVector[] {
  return vs.map((vector) => ({ memoryId: randomUUID(), spaceId, kind: 'STATEMENT', status: 'ACTIVE', vector }));
}

/** One instance's handle on the shared directory; compactions run when the test says, not on a schedule. */
async function openShared(dir: string, warnings: string[], exclusive?: LanceDbOptions['exclusive']): Promise<LanceDbIndex> {
  const index = new LanceDbIndex({
    dir, embedderId: 'shared', dimensions: DIMS, shared: true, exclusive,
    compaction: { everyWrites: 0, everyMs: 0, keepVersionsMs: 0 },
    onWarning: (message, cause) => warnings.push(`${message}: ${String((cause as Error)?.cause ?? cause)}`),
  });
  await index.init();
  return index;
}

/**
 * What src/ops/jobs.ts's `exclusive` is across instances (an advisory lock on the server), within
 * this process: one holder per job; `wait: false` skips when it is held, `wait: true` waits.
 */
function lockBetweenInstances() {
  const held = new Map<string, Promise<void>>();
  const calls: Array<{ job: string; wait: boolean; ran: boolean }> = [];
  const exclusive = async (job: string, fn: () => Promise<void>, opts: { wait: boolean }): Promise<void> => {
    while (held.has(job)) {
      if (!opts.wait) { calls.push({ job, wait: false, ran: false }); return; }
      await held.get(job);
    }
    const run = fn();
    const done = run.then(() => undefined, () => undefined);
    held.set(job, done);
    calls.push({ job, wait: opts.wait, ran: true });
    try {
      await run;
    } finally {
      held.delete(job);
    }
  };
  return { exclusive, calls };
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
    const open = () => openShared(dir, warnings);
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
    // closing compacts what each wrote since its last compaction; nothing failed
    expect(warnings).toEqual([]);
  });

  it("a compaction preempted by another's commit is planned again once, on the latest version; preempted twice, it waits for the next", async () => {
    const warnings: string[] = [];
    const index = await openShared(join(dir, 'preempted'), warnings);
    try {
      await index.upsert(items(randomUUID(), unitVectors(3, 11, DIMS)));
      // The table's own methods, wrapped: a commit conflict is what LanceDB throws when another
      // process committed while this one rewrote (seen in the multi-instance suite before).
      const table = (index as unknown as { table: { optimize: (o: unknown) => Promise<unknown>; checkoutLatest: () => Promise<void> } }).table;
      const optimize = table.optimize.bind(table);
      const checkoutLatest = table.checkoutLatest.bind(table);
      let conflicts = 0;
      let checkouts = 0;
      let optimized = 0;
      table.checkoutLatest = async () => { checkouts++; await checkoutLatest(); };
      table.optimize = async (o) => {
        if (conflicts > 0) {
          conflicts--;
          throw new Error('lance error: Retryable commit conflict for version 3: This Rewrite transaction was preempted by concurrent transaction Rewrite at version 3. Please retry.');
        }
        optimized++;
        return optimize(o);
      };
      conflicts = 1;
      await index.optimize();
      expect([optimized, checkouts, index.compactions, warnings.length]).toEqual([1, 1, 1, 0]);

      await index.upsert(items(randomUUID(), unitVectors(1, 12, DIMS)));
      conflicts = 2;
      await index.optimize();
      expect([optimized, checkouts, index.compactions]).toEqual([1, 2, 1]);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/compaction failed: .*Retryable commit conflict/);
    } finally {
      await index.close();
    }
  });

  it("an erasure waits for the other instance's compaction; afterwards both read and write, and so does a new handle", { timeout: 180_000 }, async () => {
    const shared = join(dir, 'concurrent');
    const lock = lockBetweenInstances();
    const warnings: string[] = [];
    const open = () => openShared(shared, warnings, lock.exclusive);
    const a = await open();
    const b = await open();
    const space = randomUUID();
    const kept: IndexedVector[] = [];
    try {
      // a drains (writes, then erases what was forgotten) while b compacts, over and over
      const drain = (async () => {
        for (let round = 0; round < 6; round++) {
          const batch = items(space, unitVectors(4, 100 + round, DIMS));
          await a.upsert(batch);
          await a.remove([batch[0]!.memoryId]);
          kept.push(...batch.slice(1));
        }
      })();
      const compacting = (async () => {
        for (let round = 0; round < 12; round++) {
          await b.optimize();
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      await Promise.all([drain, compacting]);
      // every erasure asked for the lock, and waited for it
      expect(lock.calls.filter((c) => c.wait && c.ran)).toHaveLength(6);

      for (const reader of [a, b]) {
        expect(await reader.count(space)).toBe(kept.length);
        const hit = await reader.search({ spaceId: space, vector: kept[3]!.vector, k: 1, exact: true });
        expect(hit.map((h) => h.memoryId)).toEqual([kept[3]!.memoryId]);
      }
      await b.upsert(items(space, unitVectors(1, 200, DIMS)));
      await a.optimize();
    } finally {
      await a.close();
      await b.close();
    }
    const fresh = await open();
    try {
      expect(await fresh.count(space)).toBe(kept.length + 1);
      await fresh.upsert(items(space, unitVectors(1, 201, DIMS)));
      expect(await fresh.count(space)).toBe(kept.length + 2);
    } finally {
      await fresh.close();
    }
    // a compaction may still meet a's writes (not under the lock) twice and wait for the next
    // round; nothing else may fail
    expect(warnings.filter((w) => !/Retryable commit conflict/i.test(w))).toEqual([]);
  });
});
