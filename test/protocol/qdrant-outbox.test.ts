/**
 * The outbox over the Qdrant adapter, with Qdrant's answers replayed
 * (test/protocol/qdrant-replay.ts): PROTOCOL tests, not engine tests. The system of
 * record is real (PGlite); the answers are the documented ones for a slow or
 * rate-limited server — a client timeout, 429 with Retry-After, 503, a refused
 * connection, an UpdateStatus other than `completed` — and none of them may park
 * a row: the outbox keeps it and it is applied once Qdrant answers `completed`.
 */
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { QdrantIndex } from '../../adapters/qdrant/qdrant-index.js';
import { pointIdFor } from '../../adapters/qdrant/qdrant-support.js';
import { checkEngine } from '../../src/engine-epoch.js';
import type { Logger } from '../../src/ports/logger.js';
import { migrate } from '../../src/store/migrations.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { isTransientEngineError, SqlOutbox } from '../../src/store/sql-outbox.js';
import { SqlStore } from '../../src/store/sql-store.js';
import { type Answer, ENGRAM_INDICES, fail, ok, QdrantReplay, update } from './qdrant-replay.js';

const NAME = 'engram_protocol_outbox';
const P = `/collections/${NAME}`;
const DIM = 4;
const MAX_ATTEMPTS = 2;
const silent = pino({ level: 'silent' }) as unknown as Logger;

const open: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!();
});

/** One system of record for the file (migrating PGlite takes seconds); each test has its own space and ids. */
let shared: SqlClient;
beforeAll(async () => {
  shared = await PgliteClient.open(':memory:');
  await migrate(shared, { dimensions: DIM });
});
afterAll(async () => {
  await shared?.close();
});
const fresh = (prefix: string) => `${prefix}${randomUUID().slice(0, 8)}`;
/** A memory id the old adapter accepted too (a UUID), so a test fails on its own point, not on the id. */
const uuid = () => randomUUID();

interface Rig { db: SqlClient; r: QdrantReplay; q: QdrantIndex; outbox: SqlOutbox; space: string }

async function rig(opts: { timeoutMs?: number } = {}): Promise<Rig> {
  const r = await QdrantReplay.start(NAME, { state: { exists: true, payloadSchema: ENGRAM_INDICES } });
  open.push(() => r.close());
  const q = new QdrantIndex({
    url: r.url, embedderId: 'protocol', dimensions: DIM, collection: NAME, timeoutMs: opts.timeoutMs, writeTimeoutMs: opts.timeoutMs,
  });
  await q.init();
  const db = shared;
  await db.query(`delete from vector_outbox`);
  await db.query(`delete from engram_meta where key like 'engine_epoch:%'`);
  open.push(() => q.close());
  const space = randomUUID();
  await new SqlStore(db).createSpace({ id: space, name: 'protocol', sealed: true, timeZone: 'UTC' });
  const outbox = new SqlOutbox(db, q, silent, { dimensions: DIM, maxAttempts: MAX_ATTEMPTS, probeParkedMs: 0 });
  return { db, r, q, outbox, space };
}

/** Memories with a vector and a pending `upsert` row, as a remember leaves them. */
async function pending(rg: Rig, ids: string[]): Promise<void> {
  await rg.db.transaction(async (tx) => {
    await tx.query(
      `insert into memories (id, space_id, kind, type, quote, normalized, said_at)
       select id, $2, 'STATEMENT', 'FACT', 'protocol ' || id, 'protocol ' || id, now() from unnest($1::text[]) as x(id)`, [ids, rg.space]);
    await tx.query(
      `insert into memory_state (memory_id, space_id, kind, type, status, last_mentioned_at)
       select id, $2, 'STATEMENT', 'FACT', 'ACTIVE', now() from unnest($1::text[]) as x(id)`, [ids, rg.space]);
    await tx.query(
      `insert into memory_vectors (memory_id, space_id, kind, embedder, embedding)
       select id, $2, 'STATEMENT', 'protocol', '[1,0,0,0]' from unnest($1::text[]) as x(id)`, [ids, rg.space]);
    await tx.query(`insert into vector_outbox (engine, memory_id, op) select 'qdrant', id, 'upsert' from unnest($1::text[]) as x(id)`, [ids]);
  });
}

async function rows(db: SqlClient): Promise<{ memory_id: string; attempts: number; last_error: string | null }[]> {
  return (await db.query<{ memory_id: string; attempts: number; last_error: string | null }>(
    `select memory_id, attempts, last_error from vector_outbox order by id`)).rows.map((x) => ({ ...x, attempts: Number(x.attempts) }));
}

/** Drains more times than it takes to park a refused row, each answered `answer`; then once with `completed`. */
async function survives(rg: Rig, answer: Answer, ids: string[]): Promise<string> {
  for (let i = 0; i <= MAX_ATTEMPTS + 1; i++) {
    rg.r.script({ route: `PUT ${P}/points`, answer });
    await expect(rg.outbox.drain()).rejects.toThrow();
    const left = await rows(rg.db);
    expect(left.map((x) => x.memory_id)).toEqual(ids);
    expect(left.every((x) => x.attempts === 0)).toBe(true); // never counted, never parked
  }
  const lastError = (await rows(rg.db))[0].last_error ?? '';
  rg.r.script({ route: `PUT ${P}/points`, answer: update('completed') });
  expect(await rg.outbox.drain()).toBe(ids.length);
  expect(await rows(rg.db)).toEqual([]);
  return lastError;
}

describe('Qdrant protocol (replayed exchanges), not the engine: the outbox never parks a row for a transient answer', () => {
  it('1. the bench\'s ids (bench-m…) and upper-case UUIDs are written, not refused', async () => {
    const rg = await rig();
    const ids = [fresh('bench-m'), fresh('bench-m'), randomUUID().toUpperCase()];
    await pending(rg, ids);
    rg.r.script({ route: `PUT ${P}/points`, answer: update('completed') });
    expect(await rg.outbox.drain()).toBe(3);
    const body = rg.r.sent(`PUT ${P}/points`)[0].body;
    expect(body.points.map((p: { id: string }) => p.id)).toEqual(ids.map(pointIdFor));
    expect(await rows(rg.db)).toEqual([]);
  });

  it('2. 429 Too Many Requests with Retry-After (the client\'s ResourceExhausted error) is transient', async () => {
    const rg = await rig();
    const id = uuid();
    await pending(rg, [id]);
    const err = await survives(rg, fail(429, 'Too many requests: write rate limit exceeded, retry later', { 'retry-after': '2' }), [id]);
    expect(err).toMatch(/QdrantClientResourceExhaustedError|429/);
  });

  it('2. a request that outlives the client timeout (QdrantClientTimeoutError) is transient', async () => {
    const rg = await rig({ timeoutMs: 300 });
    const id = uuid();
    await pending(rg, [id]);
    const err = await survives(rg, { hang: true }, [id]);
    expect(err).toMatch(/QdrantClientTimeoutError/);
  });

  it('2. 503 and a refused connection are transient', async () => {
    const rg = await rig();
    const id = uuid();
    await pending(rg, [id]);
    await survives(rg, fail(503, 'Service Unavailable: shard is being transferred'), [id]);
    await rg.r.close();
    await pending(rg, [uuid()]);
    for (let i = 0; i <= MAX_ATTEMPTS; i++) await expect(rg.outbox.drain()).rejects.toThrow();
    expect((await rows(rg.db)).map((x) => x.attempts)).toEqual([0]);
  });

  it('2. writes ask the server to stop waiting before the client gives up (timeout query parameter)', async () => {
    const rg = await rig({ timeoutMs: 60_000 });
    await pending(rg, [uuid()]);
    rg.r.script({ route: `PUT ${P}/points`, answer: update('completed') });
    await rg.outbox.drain();
    expect(rg.r.sent(`PUT ${P}/points`)[0].query).toEqual({ wait: 'true', timeout: '50' });
  });

  it('3. an UpdateStatus of wait_timeout or acknowledged keeps the row (not applied yet)', async () => {
    const rg = await rig();
    const a = uuid();
    await pending(rg, [a]);
    const err = await survives(rg, update('wait_timeout'), [a]);
    expect(err).toMatch(/wait_timeout/);
    const b = uuid();
    await pending(rg, [b]);
    await survives(rg, update('acknowledged'), [b]);
  });

  it('a refusal (400: wrong vector size) still counts and parks, as before', async () => {
    const rg = await rig();
    await pending(rg, [uuid()]);
    for (let i = 0; i < MAX_ATTEMPTS; i++) {
      rg.r.script({ route: `PUT ${P}/points`, answer: fail(400, 'Wrong input: Vector dimension error: expected dim: 4, got 3') });
      await expect(rg.outbox.drain()).rejects.toThrow();
    }
    const [row] = await rows(rg.db);
    expect(row.attempts).toBe(MAX_ATTEMPTS);
    expect(isTransientEngineError(new Error(row.last_error ?? ''))).toBe(false);
  });

  it('epoch: a collection without the marker the store recorded is seen as lost (rebuilt at start)', async () => {
    const rg = await rig();
    await pending(rg, [uuid()]);
    await rg.db.query(`delete from vector_outbox`);
    await rg.db.query(`insert into engram_meta (key, value) values ('engine_epoch:qdrant', 'epoch-7')`);
    const vectors = Number((await rg.db.query<{ n: number }>(`select count(*)::int as n from memory_vectors`)).rows[0].n);
    // The engine holds as many points as the store has vectors: only the marker can tell it is not the store's.
    rg.r.script({ route: `POST ${P}/points/count`, answer: ok({ count: vectors }) });
    expect(await checkEngine(rg.db, rg.q)).toEqual({ ok: false, reason: 'missing' });
    rg.r.state.metadata = { engram_epoch: 'epoch-7' };
    rg.r.script({ route: `POST ${P}/points/count`, answer: ok({ count: vectors }) });
    expect(await checkEngine(rg.db, rg.q)).toEqual({ ok: true });
  });
});
