/**
 * An engine whose every write costs its readers (LanceDB: a table version each search then
 * opens) asks the outbox to gather commits (`gatherWrites`): a kick after commit applies
 * the rows only once that many commits wait, and the background pass applies fewer. An
 * engine that does not ask gets each commit applied at once, as before. Over a real system
 * of record (PGlite); the engine is a recorder, since what is measured is what it is asked.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MemoryStatus } from '../../src/core/types.js';
import type { Logger } from '../../src/ports/logger.js';
import type { IndexedVector, VectorHit, VectorIndex, VectorIndexCapabilities } from '../../src/ports/vector-index.js';
import { migrate } from '../../src/store/migrations.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import type { Queryable } from '../../src/store/sql-client.js';
import { SqlOutbox } from '../../src/store/sql-outbox.js';

const silent: Logger = { info() {}, warn() {}, error() {}, debug() {}, child() { return silent; } };

/** Records each write the outbox makes (memories without a vector are removed: one call per drain's batch). */
class RecordingIndex implements VectorIndex {
  readonly name = 'recording';
  readonly writes: string[][] = [];
  constructor(readonly capabilities: VectorIndexCapabilities) {}
  async init(): Promise<void> {}
  async upsert(items: IndexedVector[]): Promise<void> { this.writes.push(items.map((i) => i.memoryId)); }
  async setStatus(ids: string[], _status: MemoryStatus): Promise<void> { this.writes.push(ids); }
  async remove(ids: string[]): Promise<void> { this.writes.push(ids); }
  async removeSpace(spaceId: string): Promise<void> { this.writes.push([spaceId]); }
  async search(): Promise<VectorHit[]> { return []; }
  async reset(): Promise<void> {}
  async close(): Promise<void> {}
}

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function setup(gatherWrites: number | undefined, loop: { intervalMs: number } | null) {
  const db = await PgliteClient.open(':memory:');
  await migrate(db, { dimensions: 4 });
  const index = new RecordingIndex({ transactional: false, exactSearch: true, metrics: ['cosine'], gatherWrites });
  const outbox = new SqlOutbox(db, index, silent, { dimensions: 4, intervalMs: loop?.intervalMs });
  if (loop) outbox.start();
  await outbox.drain(); // after start's own pass (nothing to apply yet)
  closers.push(async () => { await outbox.stop(); await db.close(); });
  /** One commit with one outbox row, kicked as the use cases do, then a pause for a drain it may start. */
  const commit = async (memoryId: string) => {
    await db.transaction((tx) => outbox.enqueue(tx as Queryable, [{ memoryId, op: 'upsert' }]));
    outbox.kick();
    await new Promise((r) => setTimeout(r, 50));
  };
  return { index, outbox, commit };
}

describe('outbox: gathered writes', () => {
  it('an engine asking for 3 gets three commits in one write, not three', async () => {
    const s = await setup(3, { intervalMs: 60_000 });
    await s.commit('m1');
    await s.commit('m2');
    expect(s.index.writes).toEqual([]);
    expect(await s.outbox.pendingCount()).toBe(2);
    await s.commit('m3');
    await vi.waitFor(async () => expect(await s.outbox.pendingCount()).toBe(0), { timeout: 10_000 });
    expect(s.index.writes).toEqual([['m1', 'm2', 'm3']]);
  });

  it('an engine not asking gets each commit applied at once', async () => {
    const s = await setup(undefined, { intervalMs: 60_000 });
    for (const id of ['m1', 'm2', 'm3']) await s.commit(id);
    await vi.waitFor(async () => expect(await s.outbox.pendingCount()).toBe(0), { timeout: 10_000 });
    expect(s.index.writes).toEqual([['m1'], ['m2'], ['m3']]);
  });

  it('fewer commits than asked are applied by the background pass', async () => {
    const s = await setup(64, { intervalMs: 200 });
    await s.commit('m1');
    await vi.waitFor(async () => expect(await s.outbox.pendingCount()).toBe(0), { timeout: 10_000 });
    expect(s.index.writes).toEqual([['m1']]);
  });

  it('without a background pass to wait for (tools, tests), a kick applies at once', async () => {
    const s = await setup(64, null);
    await s.commit('m1');
    await vi.waitFor(async () => expect(await s.outbox.pendingCount()).toBe(0), { timeout: 10_000 });
    expect(s.index.writes).toEqual([['m1']]);
  });
});
