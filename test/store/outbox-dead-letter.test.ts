/**
 * The outbox's dead letters, over a real system of record (PGlite) and a real
 * engine (LanceDB, embedded): a row the engine refuses for good is parked after
 * a bounded number of attempts, logged once, and skipped; the rows behind it keep
 * flowing; recognition and recall still see its memory; operators see it
 * (`engram outbox status`) and replay it (`engram outbox retry`, `engram reindex`).
 * An unreachable engine never parks anything.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LanceDbIndex } from '../../adapters/lancedb/lancedb-index.js';
import { configFromEnv } from '../../src/config.js';
import type { Engram } from '../../src/container.js';
import { outboxCommand } from '../../src/cli/outbox.js';
import { reindex } from '../../src/cli/reindex.js';
import { Wall } from '../../src/eval/wall.js';
import type { MemoryDeps } from '../../src/memory/deps.js';
import { searchVectors } from '../../src/memory/indexing.js';
import { recall } from '../../src/memory/recall.js';
import { remember } from '../../src/memory/remember.js';
import { neighboursOf } from '../../src/memory/consolidate.js';
import type { Logger } from '../../src/ports/logger.js';
import type { IndexedVector, VectorHit, VectorIndex, VectorSearch } from '../../src/ports/vector-index.js';
import { VectorIndexError } from '../../src/ports/vector-index.js';
import type { MemoryStatus } from '../../src/core/types.js';
import { migrate } from '../../src/store/migrations.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { isTransientEngineError, SqlOutbox } from '../../src/store/sql-outbox.js';
import { SqlStore } from '../../src/store/sql-store.js';
import { testEmbedder } from '../helpers/app.js';

/** A logger that keeps what it is given (the parking is logged at error level, once). */
class RecordingLogger implements Logger {
  readonly lines: { level: string; obj: object; msg?: string }[] = [];
  info(obj: object, msg?: string): void { this.lines.push({ level: 'info', obj, msg }); }
  warn(obj: object, msg?: string): void { this.lines.push({ level: 'warn', obj, msg }); }
  error(obj: object, msg?: string): void { this.lines.push({ level: 'error', obj, msg }); }
  debug(obj: object, msg?: string): void { this.lines.push({ level: 'debug', obj, msg }); }
  child(): Logger { return this; }
  errors(): { obj: object; msg?: string }[] { return this.lines.filter((l) => l.level === 'error'); }
}

/**
 * The real LanceDB adapter behind a gate: while `refuse` says so for a vector, the
 * write is refused the way an engine refuses a row for good (a permanent error, not
 * an outage); `down` plays an unreachable engine (connection refused).
 */
class GatedIndex implements VectorIndex {
  refuse: ((v: IndexedVector) => boolean) | null = null;
  down = false;
  constructor(readonly inner: LanceDbIndex) {}
  get name(): string { return this.inner.name; }
  get capabilities() { return this.inner.capabilities; }
  init(): Promise<void> { return this.inner.init(); }
  private gate(): void {
    if (this.down) {
      throw new VectorIndexError(this.name, 'cannot reach the engine', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:6333'), { code: 'ECONNREFUSED' }));
    }
  }
  async upsert(items: IndexedVector[]): Promise<void> {
    this.gate();
    const bad = items.find((i) => this.refuse?.(i));
    if (bad) throw new VectorIndexError(this.name, `memory ${bad.memoryId}: 384 dimensions, expected 512 (rejected by the test)`);
    return this.inner.upsert(items);
  }
  async setStatus(ids: string[], status: MemoryStatus): Promise<void> { this.gate(); return this.inner.setStatus(ids, status); }
  async remove(ids: string[]): Promise<void> { this.gate(); return this.inner.remove(ids); }
  async removeSpace(spaceId: string): Promise<void> { this.gate(); return this.inner.removeSpace(spaceId); }
  search(q: VectorSearch): Promise<VectorHit[]> { return this.inner.search(q); }
  reset(): Promise<void> { return this.inner.reset(); }
  close(): Promise<void> { return this.inner.close(); }
}

interface Setup {
  db: SqlClient;
  index: GatedIndex;
  outbox: SqlOutbox;
  deps: MemoryDeps;
  log: RecordingLogger;
  engram: Engram;
}

const opened: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!();
});

async function setup(maxAttempts = 3): Promise<Setup> {
  const embedder = testEmbedder();
  await embedder.init();
  const db = await PgliteClient.open(':memory:');
  await migrate(db, { dimensions: embedder.dimensions });
  const dir = await mkdtemp(join(tmpdir(), 'engram-dead-letter-'));
  const index = new GatedIndex(new LanceDbIndex({ dir, embedderId: embedder.id, dimensions: embedder.dimensions }));
  await index.init();
  const log = new RecordingLogger();
  const outbox = new SqlOutbox(db, index, log, { dimensions: embedder.dimensions, maxAttempts });
  const deps: MemoryDeps = {
    store: new SqlStore(db), index, embedder, clock: { now: () => new Date() }, bus: { publish: () => {} }, log,
    thresholds: embedder.thresholds, outbox, candidateK: 10,
  };
  opened.push(async () => {
    await outbox.stop();
    await outbox.drain().catch(() => {});
    await index.close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });
  const engram = { deps, db, store: deps.store as SqlStore, close: async () => {} } as Engram;
  return { db, index, outbox, deps, log, engram };
}

async function keep(deps: MemoryDeps, wall: Wall, text: string): Promise<string> {
  const c = await wall.say(text, 'USER', text);
  const r = await remember(deps, wall.assistant, { conversationId: c.id, quote: text, type: 'FACT' });
  return r.memory.id;
}

async function attemptsOf(db: SqlClient, memoryId: string): Promise<number[]> {
  return (await db.query<{ attempts: number }>(`select attempts from vector_outbox where memory_id = $1 order by id`, [memoryId]))
    .rows.map((r) => Number(r.attempts));
}

/** Drains until the row is parked (each failed drain is one attempt; kicks may add some in between). */
async function drainUntilParked(s: Setup, memoryId: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    const a = await attemptsOf(s.db, memoryId);
    if (a.length && a.every((n) => n >= s.outbox.maxAttempts)) return;
    await s.outbox.drain().catch(() => {});
  }
  throw new Error(`row of ${memoryId} was never parked`);
}

describe('outbox dead letters (PGlite + LanceDB)', () => {
  it('parks a row the engine refuses for good; the rows behind it flow; recall still finds it; status shows it; retry replays it', async () => {
    const s = await setup(3);
    const poisoned = await Wall.open(s.deps, 'dead-letter-poisoned');
    const other = await Wall.open(s.deps, 'dead-letter-other');
    s.index.refuse = (v) => v.spaceId === poisoned.spaceId;

    const bad = await keep(s.deps, poisoned, 'I keep bees on the roof of my flat.');
    const behind = [];
    for (const t of ['My cat is called Miso.', 'I drive a blue Honda Civic.', 'I play tennis on Tuesdays.']) behind.push(await keep(s.deps, other, t));
    await s.outbox.drain().catch(() => {});
    // The rows behind the refused one are in the engine although it is not parked yet.
    expect(await s.index.inner.count(other.spaceId)).toBe(3);
    expect(await s.index.inner.count(poisoned.spaceId)).toBe(0);
    // Every kick after a write tried it again: with the engine accepting the rows behind it, the
    // refusal is the row's own, and it is parked after maxAttempts without any global backoff.
    expect((await attemptsOf(s.db, bad))[0]).toBeGreaterThanOrEqual(1);

    await drainUntilParked(s, bad);
    // Parked: skipped by the drain (which no longer fails), logged at error level exactly once.
    expect(await s.outbox.drain()).toBe(0);
    expect(await s.outbox.drain()).toBe(0);
    expect(await s.outbox.pendingCount()).toBe(0);
    const errors = s.log.errors();
    expect(errors).toHaveLength(1);
    expect(errors[0].obj).toMatchObject({ memoryId: bad, op: 'upsert', attempts: 3 });
    expect(errors[0].msg).toMatch(/parked/);
    expect(await attemptsOf(s.db, bad)).toEqual([3]);

    // New writes keep flowing past the parked row.
    const later = await keep(s.deps, other, 'My mother lives in Lagos.');
    await s.outbox.drain();
    expect(await s.index.inner.count(other.spaceId)).toBe(4);
    expect(await s.outbox.pendingCount()).toBe(0);

    // Nothing acknowledged is lost from recall: the parked memory is read through the outbox.
    const [vector] = await s.deps.embedder.embed(['I keep bees on the roof of my flat.']);
    const probe = { spaceId: poisoned.spaceId, vector, k: 5, exact: true };
    expect(await s.index.search(probe)).toEqual([]);
    expect((await searchVectors(s.deps, probe)).map((h) => h.memoryId)).toContain(bad);
    const found = await recall(s.deps, poisoned.spaceId, 'Where do I keep my bees?');
    expect(found.statements.map((h) => h.memory.id)).toContain(bad);
    // Recognition too: restating it reinforces it instead of writing a duplicate.
    const c = await poisoned.say('again', 'USER', 'I keep bees on the roof of my flat!');
    const again = await remember(s.deps, poisoned.assistant, { conversationId: c.id, quote: 'I keep bees on the roof of my flat!', type: 'FACT' });
    expect(again).toMatchObject({ outcome: 'REINFORCED', memory: { id: bad } });

    // Operators see it.
    const status = await outboxCommand(s.engram, 'status', {});
    expect(status.code).toBe(2);
    expect(status.output).toContain('1 parked');
    expect(status.output).toContain(bad);
    expect(status.output).toMatch(/rejected by the test/);
    const json = JSON.parse((await outboxCommand(s.engram, 'status', { json: true })).output);
    expect(json).toMatchObject({ engine: 'lancedb', pending: 0, parked: 1, maxAttempts: 3, parkedRows: [{ memoryId: bad, op: 'upsert', attempts: 3 }] });

    // Retrying while the engine still refuses it parks it again after the same bounded attempts.
    // Once the engine accepts it, a retry replays it from PostgreSQL.
    s.index.refuse = null;
    const retried = await outboxCommand(s.engram, 'retry', {});
    expect(retried.code).toBe(0);
    expect(retried.output).toMatch(/^1 parked rows put back in line/);
    expect((await s.outbox.status()).parked).toBe(0);
    expect(await s.index.inner.count(poisoned.spaceId)).toBe(1);
    expect((await s.index.search(probe)).map((h) => h.memoryId)).toContain(bad);
    expect(later).toBeTruthy();
  }, 120_000);

  it('applies the rows behind a refused row before it is parked', async () => {
    const s = await setup(1000);
    const poisoned = await Wall.open(s.deps, 'dead-letter-early');
    const other = await Wall.open(s.deps, 'dead-letter-early-other');
    s.index.refuse = (v) => v.spaceId === poisoned.spaceId;
    const bad = await keep(s.deps, poisoned, 'I keep bees on the roof of my flat.');
    for (const t of ['My cat is called Miso.', 'I drive a blue Honda Civic.']) await keep(s.deps, other, t);
    await s.outbox.drain().catch(() => {});
    expect(await s.index.inner.count(other.spaceId)).toBe(2);
    expect(await s.index.inner.count(poisoned.spaceId)).toBe(0);
    const [attempts] = await attemptsOf(s.db, bad);
    expect(attempts).toBeGreaterThanOrEqual(1);
    expect(await s.outbox.status()).toMatchObject({ pending: 1, parked: 0 });
    expect(s.log.errors()).toHaveLength(0);
  }, 120_000);

  it('parks a row real LanceDB refuses (an identifier it will not quote), without holding back the rows behind it', async () => {
    const s = await setup(2);
    const wall = await Wall.open(s.deps, 'dead-letter-lancedb');
    // A removal LanceDB refuses by itself: it never quotes an identifier with a backslash.
    await s.db.transaction((tx) => s.outbox.enqueue(tx, [{ memoryId: 'not\\a-memory', op: 'remove' }]));
    const good = await keep(s.deps, wall, 'I grew up in Duluth.');
    await s.outbox.drain().catch(() => {});
    expect(await s.index.inner.count(wall.spaceId)).toBe(1);
    await drainUntilParked(s, 'not\\a-memory');
    const st = await s.outbox.status();
    expect(st).toMatchObject({ pending: 0, parked: 1, parkedRows: [{ memoryId: 'not\\a-memory', op: 'remove', attempts: 2 }] });
    expect(st.parkedRows[0].lastError).toMatch(/backslash/);
    expect(s.log.errors()).toHaveLength(1);
    expect(good).toBeTruthy();
  }, 120_000);

  it('never parks anything while the engine is unreachable, however many attempts', async () => {
    const s = await setup(2);
    const wall = await Wall.open(s.deps, 'dead-letter-outage');
    s.index.down = true;
    const ids = [];
    for (const t of ['My wife\'s name is Priya.', 'I support Liverpool FC.', 'I have type 1 diabetes.']) ids.push(await keep(s.deps, wall, t));
    for (let i = 0; i < 6; i++) await expect(s.outbox.drain()).rejects.toThrow(/cannot reach/);
    const st = await s.outbox.status();
    expect(st).toMatchObject({ pending: 3, parked: 0 });
    expect(s.log.errors()).toHaveLength(0);
    const rows = (await s.db.query<{ attempts: number; last_error: string | null }>(`select attempts, last_error from vector_outbox order by id`)).rows;
    expect(rows.every((r) => Number(r.attempts) === 0)).toBe(true);
    expect(rows[0].last_error).toMatch(/cannot reach/);
    s.index.down = false;
    expect(await s.outbox.drain()).toBe(3);
    expect(await s.index.inner.count(wall.spaceId)).toBe(3);
  }, 120_000);

  it('reindex replays parked rows', async () => {
    const s = await setup(2);
    const wall = await Wall.open(s.deps, 'dead-letter-reindex');
    s.index.refuse = (v) => v.spaceId === wall.spaceId;
    const bad = await keep(s.deps, wall, 'I am allergic to peanuts.');
    await drainUntilParked(s, bad);
    expect((await s.outbox.status()).parked).toBe(1);
    s.index.refuse = null;
    const config = configFromEnv({ DATABASE_URL: '' }, { engine: 'lancedb', dataDir: ':memory:', logLevel: 'silent' });
    expect(await reindex(config, s.engram, 'lancedb')).toBe(1);
    expect(await s.outbox.status()).toMatchObject({ pending: 0, parked: 0 });
    expect(await s.index.inner.count(wall.spaceId)).toBe(1);
  }, 120_000);

  it("consolidation's search through the engine finds a memory the engine does not hold (parked), as recognition's does", async () => {
    const s = await setup(1);
    const wall = await Wall.open(s.deps, 'dead-letter-neighbours');
    const kept = await keep(s.deps, wall, 'My sister lives in Lisbon.');
    await s.outbox.drain();
    s.index.refuse = (v) => v.memoryId !== kept;
    const refused = await keep(s.deps, wall, 'My brother keeps bees in Porto.');
    await drainUntilParked(s, refused);
    expect(await s.index.inner.count(wall.spaceId)).toBe(1);
    const records = await s.deps.store.activeStatements(undefined, wall.spaceId);
    expect(records.map((m) => m.id).sort()).toEqual([kept, refused].sort());
    // Through the engine (above the brute-force bound: here 0), each is the other's neighbour;
    // reading the engine alone, the parked one was nobody's.
    const viaEngine = await s.deps.store.transaction((tx) => neighboursOf(s.deps, tx, wall.spaceId, records, 0));
    const exact = await s.deps.store.transaction((tx) => neighboursOf(s.deps, tx, wall.spaceId, records));
    expect(viaEngine.get(kept)!.map((n) => n.id)).toEqual([refused]);
    expect(viaEngine.get(refused)!.map((n) => n.id)).toEqual([kept]);
    expect(viaEngine.get(kept)![0]!.score).toBeCloseTo(exact.get(kept)![0]!.score, 5);
  });

  it('tells an unreachable engine from a refused row', () => {
    expect(isTransientEngineError(new VectorIndexError('qdrant', 'upsert failed', Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } })))).toBe(true);
    expect(isTransientEngineError(new VectorIndexError('qdrant', 'upsert failed', { status: 503, message: 'Service Unavailable' }))).toBe(true);
    expect(isTransientEngineError(new VectorIndexError('qdrant', 'upsert failed', { status: 400, message: 'Bad Request: wrong vector dimension' }))).toBe(false);
    expect(isTransientEngineError(new VectorIndexError('lancedb', 'memory x: 384 dimensions, expected 512'))).toBe(false);
  });
});
