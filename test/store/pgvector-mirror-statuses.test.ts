/**
 * The vector mirror's searches and statuses (adapters/pgvector/vector-mirror.ts,
 * pgvector-quantised.ts): which statuses a search reads after its vector, and which it knows
 * ahead. A preliminary search hands back rows of any status; a search read ahead with its
 * statuses (recall, remember's recognition before its lock) reads none after the vector, and
 * answers as SQL does; a search in a transaction takes nothing read ahead; a copy that moved past
 * its read-ahead, a stale read-ahead, or a space with many rows of other statuses reads them as
 * before. The reference is the same PGlite store searched in SQL (mirror: false).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { PgliteClient } from '../../src/store/pglite-client.js';
import type { IndexedVector, VectorSearch } from '../../src/ports/vector-index.js';
import type { MemoryStatus } from '../../src/core/types.js';
import { PgvectorIndex } from '../../adapters/pgvector/pgvector-index.js';
import type { VectorMirror } from '../../adapters/pgvector/vector-mirror.js';
import { near, type Seeder, unitVectors } from '../contract/harness.js';
import { openMirrorStore } from '../helpers/mirror.js';

const DIM = 512;

describe('pgvector vector mirror: statuses, read ahead or after (pglite)', () => {
  let db: PgliteClient;
  let mirrored: PgvectorIndex;
  let sql: PgvectorIndex;
  let seed: Seeder;

  beforeAll(async () => {
    ({ db, mirrored, sql, seed } = await openMirrorStore(DIM));
  }, 120_000);
  afterAll(async () => {
    await db?.close();
  });

  it('a preliminary search hands back every row at or above minScore, any status, from the copy held, with no statement', async () => {
    // A space past the sign-bit threshold (recognition's minScore applies) and a small one (the k
    // nearest, whatever their score: the flag is ignored); near each query, restatements ACTIVE and MUTED.
    for (const size of [1_200, 40]) {
      const space = await seed.space();
      const base = unitVectors(size, 150 + size, DIM);
      for (let i = 0; i < base.length; i += 300) await seed.put(space, base.slice(i, i + 300));
      const queries = [0, 1, 2].map((j) => near(base[(j * 13) % size], 0.3, 160 + j));
      const status = new Map<string, string>();
      for (const [j, q] of queries.entries()) {
        for (const st of ['MUTED', 'ACTIVE', 'MUTED', 'ACTIVE', 'SUPERSEDED'] as const) {
          const [row] = await seed.put(space, [near(q, 0.08 + 0.02 * j, 170 + status.size)], { status: st });
          status.set(row.memoryId, st);
        }
      }
      for (const [j, q] of queries.entries()) {
        const ask: VectorSearch = { spaceId: space, vector: q, k: 2 + j, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore: 0.4 };
        await mirrored.prepare(space, 'STATEMENT');
        const before = db.statementCount;
        const ours = await mirrored.search({ ...ask, preliminary: true });
        if (size <= 1_000) {
          expect(ours, `size ${size}: as without the flag`).toEqual(await sql.search(ask));
          continue;
        }
        expect(db.statementCount, `size ${size}: no statement`).toBe(before);
        expect(ours.some((h) => status.get(h.memoryId) === 'MUTED'), 'rows of any status').toBe(true);
        expect(ours.every((h) => h.score >= 0.4)).toBe(true);
        // The caller's filter (the records' statuses), then the first k: the search with statuses read.
        const active = ours.filter((h) => (status.get(h.memoryId) ?? 'ACTIVE') === 'ACTIVE').slice(0, ask.k);
        const truth = (await sql.search(ask)).filter((h) => h.score >= 0.4);
        expect(active, `size ${size}, k ${ask.k}`).toEqual(truth);
      }
    }
  }, 120_000);

  it('recognition\'s search read ahead with its statuses reads no status after, however many rows reach minScore', async () => {
    // Past the sign-bit threshold (minScore applies); near each query more rows than a preliminary
    // search hands back unread (4k), of every status, so without the read-ahead statuses are read.
    const space = await seed.space();
    const base = unitVectors(1_200, 270, DIM);
    for (let i = 0; i < base.length; i += 300) await seed.put(space, base.slice(i, i + 300));
    const queries = [0, 1].map((j) => near(base[j * 97], 0.3, 280 + j));
    const statuses = ['ACTIVE', 'MUTED', 'SUPERSEDED', 'MERGED'] as const;
    for (const [j, q] of queries.entries()) {
      for (let i = 0; i < 16; i++) await seed.put(space, [near(q, 0.05 + 0.01 * i, 300 + 20 * j + i)], { status: statuses[i % 4] });
    }
    for (const q of queries) {
      for (const preliminary of [true, false]) {
        const ask: VectorSearch = { spaceId: space, vector: q, k: 2, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore: 0.4, preliminary };
        const truth = (await sql.search(ask)).filter((h) => h.score >= 0.4);
        expect(truth.length).toBe(2);
        await mirrored.prepare(space, 'STATEMENT', ['ACTIVE']);
        const before = db.statementCount;
        expect(await mirrored.search(ask), `preliminary ${preliminary}`).toEqual(truth);
        expect(db.statementCount - before, 'no statement once the vector is known').toBe(0);
        // Without the read-ahead's statuses: the same answer, the statuses read after the vector.
        await mirrored.prepare(space, 'STATEMENT');
        const plain = db.statementCount;
        expect(await mirrored.search(ask)).toEqual(truth);
        expect(db.statementCount - plain).toBeGreaterThan(0);
      }
    }
  }, 120_000);

  it('a search in a transaction takes nothing read ahead: a status changed after the read-ahead is seen', async () => {
    // Another remember's read-ahead (or one whose search never came) must not answer recognition
    // under the space's lock or consolidation: nothing compares the space's last event id after them.
    const space = await seed.space();
    const base = unitVectors(1_200, 330, DIM);
    for (let i = 0; i < base.length; i += 300) await seed.put(space, base.slice(i, i + 300));
    const q = near(base[3], 0.3, 340);
    const [muted] = await seed.put(space, [near(q, 0.02, 341)], { status: 'MUTED' });
    for (const minScore of [0.4, undefined]) {
      const ask: VectorSearch = { spaceId: space, vector: q, k: 3, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore };
      await seed.setStatus([muted.memoryId], 'MUTED');
      await mirrored.prepare(space, 'STATEMENT', ['ACTIVE']);
      // Unmuted after the read-ahead (an event, no vector written: the copy's seq does not move).
      await db.query(`update memory_state set status = 'ACTIVE' where memory_id = $1`, [muted.memoryId]);
      // (SQL may add rows below minScore, which recognition does not weigh: the port's contract)
      const reaching = <H extends { score: number }>(hits: H[]) => hits.filter((h) => minScore === undefined || h.score >= minScore);
      const truth = reaching(await sql.search(ask));
      expect(truth[0]?.memoryId).toBe(muted.memoryId);
      const inTx = await db.transaction((tx) => mirrored.search(ask, tx));
      expect(reaching(inTx), `minScore ${minScore}`).toEqual(truth);
    }
  }, 120_000);

  it('a search read ahead with its statuses reads no status after: the rows of other statuses known, the answer SQL gives', async () => {
    const space = await seed.space();
    const base = unitVectors(300, 180, DIM);
    await seed.put(space, base);
    const queries = [0, 1, 2].map((j) => near(base[j * 50], 0.3, 190 + j));
    // Near each query, rows of every status a recall meets.
    for (const [j, q] of queries.entries()) {
      for (const [i, st] of (['MUTED', 'SUPERSEDED', 'MERGED', 'ERRONEOUS', 'RETRACTED', 'ACTIVE'] as const).entries()) {
        await seed.put(space, [near(q, 0.05 + 0.01 * i, 200 + 10 * j + i)], { status: st });
      }
    }
    const recallStatuses: MemoryStatus[][] = [['ACTIVE', 'SUPERSEDED', 'ERRONEOUS'], ['ACTIVE']];
    const ask = (q: Float32Array, k: number, statuses: MemoryStatus[]): VectorSearch => ({ spaceId: space, vector: q, k, statuses, kind: 'STATEMENT' });
    const statementsOf = async (prepared: MemoryStatus[] | undefined, a: VectorSearch) => {
      await mirrored.prepare(space, 'STATEMENT', prepared);
      const before = db.statementCount;
      const hits = await mirrored.search(a);
      return { hits, statements: db.statementCount - before };
    };
    for (const q of queries) {
      for (const statuses of recallStatuses) {
        for (const k of [3, 100]) {
          const a = ask(q, k, statuses);
          const truth = await sql.search(a);
          const read = await statementsOf(statuses, a);
          expect(read.hits, `k ${k} ${statuses.join('+')}`).toEqual(truth);
          expect(read.statements, 'no statement once the vector is known').toBe(0);
          // Read ahead without them, or with others: the statuses are read after, as before.
          for (const other of [undefined, statuses.length === 1 ? recallStatuses[0] : ['ACTIVE' as const]]) {
            const plain = await statementsOf(other, a);
            expect(plain.hits).toEqual(truth);
            expect(plain.statements).toBeGreaterThan(0);
          }
        }
      }
    }
    // A status changed: the next read-ahead knows it.
    const a = ask(queries[0], 5, ['ACTIVE']);
    const [top] = await sql.search(a);
    await seed.setStatus([top.memoryId], 'MUTED');
    const afterMute = await statementsOf(['ACTIVE'], a);
    expect(afterMute.hits.map((h) => h.memoryId)).not.toContain(top.memoryId);
    expect(afterMute.hits).toEqual(await sql.search(a));
    // A row written between the read-ahead and the search: that search answers as of its read-ahead
    // (the copy and the statuses read then); the next one finds the row.
    await mirrored.prepare(space, 'STATEMENT', ['ACTIVE']);
    const [late] = await seed.put(space, [near(queries[1], 0.01, 260)]);
    const then = await mirrored.search(ask(queries[1], 3, ['ACTIVE']));
    expect(then.map((h) => h.memoryId)).not.toContain(late.memoryId);
    expect((await statementsOf(['ACTIVE'], ask(queries[1], 3, ['ACTIVE']))).hits[0].memoryId).toBe(late.memoryId);
  }, 120_000);

  it('reads statuses after the vector where the copy moved past its read-ahead, or the read-ahead is stale', async () => {
    const space = await seed.space();
    const base = unitVectors(200, 300, DIM);
    await seed.put(space, base);
    const q = near(base[7], 0.3, 310);
    const a: VectorSearch = { spaceId: space, vector: q, k: 3, statuses: ['ACTIVE'], kind: 'STATEMENT' };
    const searched = async () => {
      const before = db.statementCount;
      const hits = await mirrored.search(a);
      return { hits, statements: db.statementCount - before };
    };
    const mirror = (mirrored as unknown as { mirror: VectorMirror }).mirror;

    // Another search caught the copy up after the read-ahead (a MUTED row written meanwhile):
    // the rows of other statuses read ahead do not know it.
    await mirrored.prepare(space, 'STATEMENT', ['ACTIVE']);
    const [muted] = await seed.put(space, [near(q, 0.01, 311)], { status: 'MUTED' });
    await mirror.nearest(db, space, 'STATEMENT', q, Number.POSITIVE_INFINITY);
    const caughtUp = await searched();
    expect(caughtUp.statements).toBeGreaterThan(0);
    expect(caughtUp.hits.map((h) => h.memoryId)).not.toContain(muted.memoryId);
    expect(caughtUp.hits).toEqual(await sql.search(a));

    // A row written between the read-ahead's catch-up and its status read (a transaction queued
    // between the two): the status read's seq is past the copy's, and the search reads as before.
    const query = db.query.bind(db);
    let late: IndexedVector | undefined;
    const spy = vi.spyOn(db, 'query').mockImplementation(async (text: string, params?: unknown[]) => {
      if (!late && /status in \(/.test(text)) [late] = await seed.put(space, [near(q, 0.01, 312)], { status: 'MUTED' });
      return query(text, params);
    });
    try {
      await mirrored.prepare(space, 'STATEMENT', ['ACTIVE']);
    } finally {
      spy.mockRestore();
    }
    expect(late).toBeDefined();
    const between = await searched();
    expect(between.statements).toBeGreaterThan(0);
    expect(between.hits.map((h) => h.memoryId)).not.toContain(late!.memoryId);
    expect(between.hits).toEqual(await sql.search(a));

    // A read-ahead whose search comes more than 5 s later serves it no more.
    await mirrored.prepare(space, 'STATEMENT', ['ACTIVE']);
    const now = performance.now.bind(performance);
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => now() + 6_000);
    try {
      const stale = await searched();
      expect(stale.statements).toBeGreaterThan(0);
      expect(stale.hits).toEqual(await sql.search(a));
    } finally {
      clock.mockRestore();
    }
    // And within them, it does (the same search, no statement).
    await mirrored.prepare(space, 'STATEMENT', ['ACTIVE']);
    const fresh = await searched();
    expect(fresh.statements).toBe(0);
    expect(fresh.hits).toEqual(await sql.search(a));

    // A read-ahead whose status read fails still caught the copy up: the search runs its status
    // read (with the copy's check), not a catch-up before it.
    await mirrored.prepare(space, 'STATEMENT');
    const plain = await searched();
    const failing = vi.spyOn(db, 'query').mockImplementation(async (text: string, params?: unknown[]) => {
      if (/status in \(/.test(text)) throw new Error('status read lost');
      return query(text, params);
    });
    try {
      await expect(mirrored.prepare(space, 'STATEMENT', ['ACTIVE'])).rejects.toThrow('status read lost');
    } finally {
      failing.mockRestore();
    }
    const afterFailure = await searched();
    expect(afterFailure.statements).toBe(plain.statements);
    expect(afterFailure.hits).toEqual(await sql.search(a));
  }, 120_000);

  it('reads statuses after the vector as before where more than a thousand rows have other statuses', async () => {
    const space = await seed.space();
    const base = unitVectors(1_050, 270, DIM);
    await seed.put(space, base.slice(0, 1_001), { status: 'MUTED' });
    await seed.put(space, base.slice(1_001));
    const a: VectorSearch = { spaceId: space, vector: near(base[1_010], 0.2, 280), k: 10, statuses: ['ACTIVE'], kind: 'STATEMENT' };
    await mirrored.prepare(space, 'STATEMENT', ['ACTIVE']);
    const before = db.statementCount;
    const hits = await mirrored.search(a);
    expect(db.statementCount).toBeGreaterThan(before);
    expect(hits).toEqual(await sql.search(a));
  }, 120_000);

  it('a read-ahead that fails leaves none for its search: a preliminary search then catches up, and finds a row written since the last one', async () => {
    // The index's client fails on demand (the read-ahead's catch-up), as a dropped connection would.
    let fail = false;
    const flaky = new Proxy(db, {
      get(target, prop, receiver) {
        if (prop === 'query') {
          return (...a: Parameters<PgliteClient['query']>) => (fail ? Promise.reject(new Error('connection lost')) : target.query(...a));
        }
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...x: unknown[]) => unknown).bind(target) : v;
      },
    });
    const idx = new PgvectorIndex(flaky, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY });
    const space = await seed.space();
    const base = unitVectors(1_200, 190, DIM);
    for (let i = 0; i < base.length; i += 300) await seed.put(space, base.slice(i, i + 300));
    await idx.prepare(space, 'STATEMENT', ['ACTIVE'], true); // read ahead: the copy as of now, its flag set
    // A restatement's original is written after it (another caller's remember), then a read-ahead fails.
    const [x] = unitVectors(1, 191, DIM);
    const [row] = await seed.put(space, [x!]);
    fail = true;
    await expect(idx.prepare(space, 'STATEMENT', ['ACTIVE'], true)).rejects.toThrow();
    fail = false;
    const hits = await idx.search({ spaceId: space, vector: near(x!, 0.05, 192), k: 10, statuses: ['ACTIVE'], kind: 'STATEMENT', exact: true, minScore: 0.5, preliminary: true });
    expect(hits[0]?.memoryId).toBe(row!.memoryId);
  }, 120_000);
});
