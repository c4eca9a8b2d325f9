/**
 * The vector mirror on a PostgreSQL server (docs/engines.md, "The vector mirror", on a server):
 * the copy catches up by reading a space's rows past the highest `seq` it holds, which is sound
 * only if a space's rows commit in `seq` order. Migration 22 makes the bits trigger take the
 * space's write lock before numbering a row, so a second writer of the space waits for the first
 * to end. On the server the copy reads outside transactions only (committed rows): a search or
 * a delete in a transaction goes to SQL, and a rollback leaves the copy right. The reference is
 * the same database searched in SQL (mirror: false). Ordering is asserted through the lock's
 * own wait (pg_locks), never through time.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrations.js';
import { PgClient } from '../../src/store/pg-client.js';
import type { VectorHit, VectorSearch } from '../../src/ports/vector-index.js';
import { toPgVectorText } from '../../src/core/vectors.js';
import { PgvectorIndex } from '../../adapters/pgvector/pgvector-index.js';
import { assertTestDatabase } from '../helpers/db.js';
import { near, Seeder, unitVectors } from '../contract/harness.js';

const DIM = 512;
const url = process.env.DATABASE_URL;

describe.skipIf(!url)('pgvector vector mirror (pg)', () => {
  let db: PgClient;
  let mirrored: PgvectorIndex;
  let sql: PgvectorIndex;
  let seed: Seeder;

  beforeAll(async () => {
    assertTestDatabase(url!);
    db = new PgClient(url!, 6);
    await migrate(db, { dimensions: DIM });
    mirrored = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, mirror: true });
    sql = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, mirror: false });
    seed = new Seeder(db, sql);
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  /**
   * The same hits, in the same order, at the same scores to float32 rounding: the server's pgvector
   * computes a distance with the processor's vector instructions, whose sums round differently from
   * the copy's (PGlite's build, which the copy matches to the last bit, does not use them).
   */
  const same = (a: VectorHit[], b: VectorHit[]) => {
    expect(a.map((h) => h.memoryId)).toEqual(b.map((h) => h.memoryId));
    a.forEach((h, i) => expect(h.score).toBeCloseTo(b[i]!.score, 5));
  };

  const ask = (spaceId: string, vector: Float32Array, extra: Partial<VectorSearch> = {}): VectorSearch =>
    ({ spaceId, vector, k: 10, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, ...extra });

  /** A memory and its vector written in `tx` by SQL (another instance's remember), uncommitted until the caller commits. */
  const write = async (tx: { query: PgClient['query'] }, space: string, id: string, v: Float32Array) => {
    await tx.query(`insert into memories (id, space_id, kind, type, quote, normalized, said_at) values ($1, $2, 'STATEMENT', 'FACT', $1, $1, now())`, [id, space]);
    await tx.query(`insert into memory_state (memory_id, space_id, kind, type, status, last_mentioned_at) values ($1, $2, 'STATEMENT', 'FACT', 'ACTIVE', now())`, [id, space]);
    await tx.query(`insert into memory_vectors (memory_id, space_id, kind, embedder, embedding) values ($1, $2, 'STATEMENT', 'test', $3::vector)`, [id, space, toPgVectorText(v)]);
  };

  /** Whether the session `pid` waits for an advisory lock now. */
  const waitsForAdvisoryLock = async (pid: number) => Number((await db.query<{ n: number }>(
    `select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and pid = $1`, [pid])).rows[0].n) > 0;

  it('a second writer of a space waits for the first: a row numbered before one the copy read is never skipped', async () => {
    const space = await seed.space();
    const base = unitVectors(300, 1, DIM);
    await seed.put(space, base);
    const [first, second] = unitVectors(2, 2, DIM);
    const [idA, idB] = [randomUUID(), randomUUID()];
    const probe = ask(space, near(first, 0.05, 3), { minScore: 0.5 });
    same(await mirrored.search(probe), await sql.search(probe)); // the copy read
    // Writer A numbers its row and stays open; writer B, in the same space, must wait for A.
    let releaseA!: () => void;
    const aHolds = new Promise<void>((r) => { releaseA = r; });
    let aWrote!: () => void;
    const aWritten = new Promise<void>((r) => { aWrote = r; });
    const a = db.transaction(async (tx) => {
      await write(tx, space, idA, first);
      aWrote();
      await aHolds;
    });
    await aWritten;
    let bDone = false;
    let b: Promise<void> = Promise.resolve();
    try {
      let bPid = 0;
      b = db.transaction(async (tx) => {
        bPid = Number((await tx.query<{ pid: number }>(`select pg_backend_pid() as pid`)).rows[0]!.pid);
        await write(tx, space, idB, second);
      }).then(() => { bDone = true; });
      // Until B is seen waiting for the lock, or has written (what it did before migration 22).
      while (!bDone && (bPid === 0 || !(await waitsForAdvisoryLock(bPid)))) await new Promise((r) => setTimeout(r, 20));
      expect(bDone).toBe(false);
      // Meanwhile the copy is searched: neither row is committed.
      expect((await mirrored.search(probe)).map((h) => h.memoryId)).not.toContain(idA);
    } finally {
      releaseA();
      await a;
      await b;
    }
    // Both are found, A's row too though its number is lower than B's.
    for (const [id, v] of [[idA, first], [idB, second]] as const) {
      const q = ask(space, near(v, 0.05, 4), { minScore: 0.5 });
      const hits = await mirrored.search(q);
      expect(hits[0]?.memoryId).toBe(id);
      same(hits, await sql.search(q));
    }
  }, 60_000);

  it('a search in a transaction sees its own rows; a rollback leaves nothing in the copy', async () => {
    const space = await seed.space();
    await seed.put(space, unitVectors(200, 5, DIM));
    const [v] = unitVectors(1, 6, DIM);
    const rolledBack = randomUUID();
    const q = ask(space, near(v, 0.05, 7), { minScore: 0.5 });
    await mirrored.search(q); // the copy read
    const held = mirrored.mirrorBytes!;
    await db.transaction(async (tx) => {
      await write(tx, space, rolledBack, v);
      expect((await mirrored.search(q, tx))[0]?.memoryId).toBe(rolledBack);
      expect(mirrored.mirrorBytes).toBe(held); // answered in SQL: the copy read nothing in the transaction
      throw new Error('roll back');
    }).catch(() => {});
    const after = await mirrored.search(q);
    expect(mirrored.mirrorBytes).toBe(held);
    expect(after.map((h) => h.memoryId)).not.toContain(rolledBack);
    same(after, await sql.search(q));
  }, 60_000);

  it('a delete in a transaction that rolls back leaves the row found; a committed one leaves the copy at the next search', async () => {
    const space = await seed.space();
    const vs = unitVectors(200, 8, DIM);
    const items = await seed.put(space, vs);
    const q = ask(space, near(vs[10], 0.05, 9), { minScore: 0.5 });
    expect((await mirrored.search(q))[0]?.memoryId).toBe(items[10].memoryId);
    // As forget does: the memory goes (its state and vector with it), and the adapter is told.
    const forget = async (tx: { query: PgClient['query'] }) => {
      await tx.query(`set local engram.forget = 'on'`); // what the store's forget sets (migration 1's append-only triggers)
      await tx.query(`delete from memories where id = $1`, [items[10].memoryId]);
      await mirrored.remove([items[10].memoryId], tx);
    };
    await db.transaction(async (tx) => {
      await forget(tx);
      expect((await mirrored.search(q, tx)).map((h) => h.memoryId)).not.toContain(items[10].memoryId);
      throw new Error('roll back');
    }).catch(() => {});
    expect((await mirrored.search(q))[0]?.memoryId).toBe(items[10].memoryId);
    const held = mirrored.mirrorBytes!;
    await db.transaction(forget);
    // The next search drops it from the copy (its id and its zeroed slot, 60 bytes held a row),
    // though that search does not meet it: the farthest row from its question.
    await mirrored.search(ask(space, vs[10]!.map((x) => -x)));
    expect(mirrored.mirrorBytes!).toBe(held - 60);
    const after = await mirrored.search(q);
    expect(after.map((h) => h.memoryId)).not.toContain(items[10].memoryId);
    same(after, await sql.search(q));
  }, 60_000);

  it('a space dropped in a transaction is let go of once the drop has committed, not before', async () => {
    const space = await seed.space();
    const vs = unitVectors(50, 12, DIM);
    await seed.put(space, vs);
    const q = ask(space, near(vs[3]!, 0.05, 13), { minScore: 0.5 });
    const before = mirrored.mirrorBytes!; // the other tests' spaces
    await mirrored.search(q); // the copy read
    const held = mirrored.mirrorBytes! - before;
    const other = await seed.space();
    await seed.put(other, unitVectors(5, 14, DIM));
    const probe = ask(other, unitVectors(1, 15, DIM)[0]!);
    await mirrored.search(probe);
    const both = mirrored.mirrorBytes!;
    let inside = 0;
    await db.transaction(async (tx) => {
      await mirrored.removeSpace(space, tx);
      await mirrored.search(probe); // outside the transaction: the space's vectors are still committed
      inside = mirrored.mirrorBytes!;
      throw new Error('roll back');
    }).catch(() => {});
    expect(inside).toBe(both);
    await mirrored.search(probe);
    expect(mirrored.mirrorBytes).toBe(both); // rolled back: still held, and still found
    expect((await mirrored.search(q))[0]?.memoryId).toBeDefined();
    await db.transaction((tx) => mirrored.removeSpace(space, tx));
    await mirrored.search(probe);
    expect(mirrored.mirrorBytes).toBe(both - held);
  }, 60_000);
});
