/**
 * When pgvector's HNSW index gets built (adapters/pgvector, src/container.ts): once one
 * space's vectors (of one kind) outnumber the threshold, never by itself when the threshold is off (the
 * PGlite default: a build there runs on the service's only thread), always when forced
 * (`engram reindex --engine pgvector`), and CONCURRENTLY on a server. Each database run
 * works in a schema of its own, so building and dropping the index never touches the
 * tables other suites share.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../helpers/db.js';
import { BITS_INDEX, FLOAT_HNSW_INDEX, HNSW_INDEX, PgvectorIndex, halfOf } from '../../adapters/pgvector/pgvector-index.js';
import { migrate } from '../../src/store/migrations.js';
import { PgClient } from '../../src/store/pg-client.js';
import type { Queryable, SqlClient } from '../../src/store/sql-client.js';
import { rng } from '../../src/core/random.js';

const DIM = 16;

async function validIndex(db: SqlClient, name = HNSW_INDEX): Promise<boolean> {
  const r = await db.query<{ n: number }>(
    `select count(*)::int as n from pg_class c join pg_index x on x.indexrelid = c.oid
     where c.relname = $1 and c.relnamespace = current_schema()::regnamespace and x.indisvalid`, [name]);
  return Number(r.rows[0].n) === 1;
}

/** `db` recording the text of every statement it sends (in transactions too) into `sent`. */
function recording(db: SqlClient, sent: string[]): SqlClient {
  const rec = (q: Queryable): Queryable => ({ query: (sql, params) => { sent.push(sql); return q.query(sql, params); } });
  return {
    driver: db.driver,
    get statementCount() { return db.statementCount; },
    get rollbacks() { return db.rollbacks; },
    exec: (sql) => db.exec(sql),
    query: rec(db).query,
    transaction: (fn) => db.transaction((tx) => fn(rec(tx))),
    close: () => db.close(),
  };
}

for (const target of testDatabases()) {
  describe(`pgvector HNSW build (${target.name})`, () => {
    let db: SqlClient;
    let vectors: Float32Array[] = [];
    let admin: SqlClient | null = null;
    const schema = `ann_build_${randomBytes(4).toString('hex')}`;

    beforeAll(async () => {
      if (target.name === 'pg') {
        admin = await target.open();
        await admin.query(`create schema ${schema}`);
        const url = new URL(process.env.DATABASE_URL!);
        url.searchParams.set('options', `-c search_path=${schema},public`);
        db = new PgClient(url.toString(), 2);
      } else {
        db = await target.open();
      }
      await migrate(db, { dimensions: DIM });
      const r = rng(7);
      const items = Array.from({ length: 300 }, (_, i) => ({
        memoryId: `m${i}`, spaceId: 's1', kind: 'STATEMENT' as const, status: 'ACTIVE' as const,
        vector: Float32Array.from({ length: DIM }, () => r() - 0.5),
      }));
      // memory_vectors rows need their memories (foreign keys): the store's tables, minimal rows.
      await db.query(`insert into spaces (id, name) values ('s1', 'ann build')`);
      await db.query(
        `insert into memories (id, space_id, kind, type, quote, normalized, said_at)
         select id, 's1', 'STATEMENT', 'FACT', id, id, now() from unnest($1::text[]) as x(id)`, [items.map((i) => i.memoryId)]);
      await db.query(
        `insert into memory_state (memory_id, space_id, kind, type, last_mentioned_at, embedding_status)
         select id, 's1', 'STATEMENT', 'FACT', now(), 'OK' from unnest($1::text[]) as x(id)`, [items.map((i) => i.memoryId)]);
      await new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY }).upsert(items);
      vectors = items.map((i) => i.vector);
    });
    afterAll(async () => {
      await db?.close();
      if (admin) {
        await admin.query(`drop schema ${schema} cascade`);
        await admin.close();
      }
    });

    it('is never built by itself when off, and is built when forced', async () => {
      const off = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, concurrentBuild: target.name === 'pg' });
      expect(await off.ensureAnnIndex()).toBe(false);
      expect(await validIndex(db)).toBe(false);
      expect(await off.ensureAnnIndex(true)).toBe(true);
      expect(await validIndex(db)).toBe(true);
      await db.query(`drop index ${HNSW_INDEX}`);
    });

    it('is built once the table outgrows the threshold, and not below it', async () => {
      const high = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: 1_000, concurrentBuild: target.name === 'pg' });
      expect(await high.ensureAnnIndex()).toBe(false);
      expect(await validIndex(db)).toBe(false);
      const low = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: 100, exactScanBelow: 100, concurrentBuild: target.name === 'pg' });
      expect(await low.ensureAnnIndex()).toBe(true);
      expect(await validIndex(db)).toBe(true);
      // and approximate searches go through it, within the space
      const hits = await low.search({ spaceId: 's1', vector: new Float32Array(DIM).fill(0.1), k: 5 });
      expect(hits).toHaveLength(5);
    });

    it('is built on the vectors in half precision, replaces an index on the float vectors, and its walk finds what the exact scan finds', async () => {
      await db.query(`drop index if exists ${HNSW_INDEX}`);
      // a store indexed by an earlier version: the float index
      await db.query(`create index ${FLOAT_HNSW_INDEX} on memory_vectors using hnsw (embedding vector_cosine_ops)`);
      const idx = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: 100, exactScanBelow: 100, concurrentBuild: target.name === 'pg', mirror: false });
      expect(await idx.ensureAnnIndex()).toBe(true);
      expect(await validIndex(db)).toBe(true);
      expect(await validIndex(db, FLOAT_HNSW_INDEX)).toBe(false);
      const def = await db.query<{ def: string }>(
        `select pg_get_indexdef(c.oid) as def from pg_class c where c.relname = $1 and c.relnamespace = current_schema()::regnamespace`, [HNSW_INDEX]);
      expect(def.rows[0].def).toMatch(/halfvec\(16\)\) halfvec_cosine_ops/);
      // the walk's ordering (as `hnsw` writes it) matches the index's expression (300 rows: the planner would rather sort, unless told not to scan)
      const plan = await db.transaction(async (tx) => {
        await tx.query('set local enable_seqscan = off');
        return tx.query<{ 'QUERY PLAN': string }>(
          `explain select memory_id from memory_vectors v order by ${halfOf('v.embedding', DIM)} <=> ${halfOf('$1::vector', DIM)} limit 5`,
          [`[${vectors[0].join(',')}]`]);
      });
      expect(plan.rows.map((r) => r['QUERY PLAN']).join('\n')).toContain(HNSW_INDEX);
      const exact = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, mirror: false });
      const r = rng(13);
      for (let j = 0; j < 10; j++) {
        const of = j * 29;
        const q = vectors[of].map((x) => x + (r() - 0.5) * 0.02);
        const hits = await idx.search({ spaceId: 's1', vector: q, k: 5 });
        const truth = await exact.search({ spaceId: 's1', vector: q, k: 5, exact: true });
        expect(hits[0].memoryId).toBe(`m${of}`);
        // the distances are the float ones, as the exact scan's
        expect(hits[0].score).toBe(truth[0].score);
      }
    });

    it('a store with only the float index of an earlier version keeps walking it until the new one is built', async () => {
      await db.query(`drop index if exists ${HNSW_INDEX}`);
      await db.query(`create index if not exists ${FLOAT_HNSW_INDEX} on memory_vectors using hnsw (embedding vector_cosine_ops)`);
      // PGlite's default: the service builds no index itself
      const off = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, exactScanBelow: 100, mirror: false });
      expect(await off.ensureAnnIndex()).toBe(false);
      expect(off.annWalk).toBe('float');
      expect(await validIndex(db, FLOAT_HNSW_INDEX)).toBe(true);
      const exact = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, mirror: false });
      const q = vectors[58].map((x) => x + 0.005);
      const hits = await off.search({ spaceId: 's1', vector: q, k: 5 });
      const truth = await exact.search({ spaceId: 's1', vector: q, k: 5, exact: true });
      expect(hits[0]).toEqual(truth[0]);
      // `engram reindex` (forced): the new index, the float one dropped, the walk moved
      expect(await off.ensureAnnIndex(true)).toBe(true);
      expect(off.annWalk).toBe('half');
      expect(await validIndex(db)).toBe(true);
      expect(await validIndex(db, FLOAT_HNSW_INDEX)).toBe(false);
      expect((await off.search({ spaceId: 's1', vector: q, k: 5 }))[0]).toEqual(truth[0]);
    });

    it('an approximate search of a space the vector mirror holds reranks its sign-bit window instead of walking the index', async () => {
      await db.query(`drop index if exists ${FLOAT_HNSW_INDEX}`);
      const sent: string[] = [];
      const rc = recording(db, sent);
      const idx = new PgvectorIndex(rc, { embedder: 'test', annIndexAbove: 100, exactScanBelow: 100, quantisedAbove: 100, concurrentBuild: target.name === 'pg', mirror: true });
      expect(await idx.ensureAnnIndex()).toBe(true);
      const exact = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, mirror: false });
      const walked = () => sent.some((x) => x.includes('hnsw.ef_search'));
      const q = vectors[87].map((x) => x + 0.005);
      const truth = await exact.search({ spaceId: 's1', vector: q, k: 5, exact: true });
      // not held yet: the walk
      sent.length = 0;
      expect((await idx.search({ spaceId: 's1', vector: q, k: 5 }))[0]!.memoryId).toBe('m87');
      expect(walked()).toBe(true);
      // recognition's search reads the space into the copy; approximate searches rank it from then on
      await idx.search({ spaceId: 's1', vector: q, k: 5, exact: true, minScore: 0.5 });
      sent.length = 0;
      const hits = await idx.search({ spaceId: 's1', vector: q, k: 5 });
      expect(walked()).toBe(false);
      expect(hits.map((h) => h.memoryId)).toEqual(truth.map((h) => h.memoryId));
      hits.forEach((h, i) => expect(h.score).toBeCloseTo(truth[i]!.score, 5));
      if (target.name === 'pg') {
        // on a server the copy holds committed rows only: a search in a transaction walks
        sent.length = 0;
        const inTx = await rc.transaction((tx) => idx.search({ spaceId: 's1', vector: q, k: 5 }, tx));
        expect(inTx[0]!.memoryId).toBe('m87');
        expect(walked()).toBe(true);
      }
    });

    it('with bitsIndex, recognition in a space past exactScanBelow walks the sign bits\' HNSW index and returns what the exact scan returns', async () => {
      // The triggers of migration 11 keep one row of sign bits per vector.
      const bits = await db.query<{ n: number }>(`select count(*)::int as n from memory_vector_bits`);
      expect(Number(bits.rows[0].n)).toBe(300);
      // The SQL paths on both stores (PGlite's default, the in-process vector mirror, walks no index: test/store/pgvector-mirror.test.ts).
      const idx = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: 100, exactScanBelow: 100, quantisedAbove: 100, bitsIndex: true, concurrentBuild: target.name === 'pg', mirror: false });
      expect(await idx.ensureAnnIndex()).toBe(true);
      expect(await validIndex(db, BITS_INDEX)).toBe(true);
      const exact = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, quantisedAbove: Number.POSITIVE_INFINITY, mirror: false });
      const r = rng(11);
      for (let j = 0; j < 20; j++) {
        const of = j * 15;
        const q = vectors[of].map((x) => x + (r() - 0.5) * 0.05);
        const search = { spaceId: 's1', vector: q, k: 10, statuses: ['ACTIVE' as const], kind: 'STATEMENT' as const, exact: true };
        const hits = await idx.search({ ...search, minScore: 0.4 });
        const truth = await exact.search(search);
        expect(hits[0].memoryId).toBe(`m${of}`);
        expect(hits.map((h) => h.memoryId)).toEqual(truth.map((h) => h.memoryId));
      }
    });

    it('a held build waits for the bulk load to release it', async () => {
      await db.query(`drop index if exists ${HNSW_INDEX}`);
      const i = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: 100, concurrentBuild: target.name === 'pg' });
      i.holdAnnIndex(true);
      expect(await i.ensureAnnIndex()).toBe(false);
      expect(await validIndex(db)).toBe(false);
      i.holdAnnIndex(false);
      expect(await i.ensureAnnIndex()).toBe(true);
    });

    it('the threshold counts the largest space, not the table: small spaces never use the index, and would pay its upkeep', async () => {
      await db.query(`drop index if exists ${HNSW_INDEX}`);
      // a second space of 150 beside s1's 300: 450 vectors in the table, 300 in the largest space
      const r = rng(11);
      const ids = Array.from({ length: 150 }, (_, i) => `s2m${i}`);
      await db.query(`insert into spaces (id, name) values ('s2', 'ann build, small')`);
      await db.query(
        `insert into memories (id, space_id, kind, type, quote, normalized, said_at)
         select id, 's2', 'STATEMENT', 'FACT', id, id, now() from unnest($1::text[]) as x(id)`, [ids]);
      await db.query(
        `insert into memory_state (memory_id, space_id, kind, type, last_mentioned_at, embedding_status)
         select id, 's2', 'STATEMENT', 'FACT', now(), 'OK' from unnest($1::text[]) as x(id)`, [ids]);
      const off = { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY };
      await new PgvectorIndex(db, off).upsert(ids.map((memoryId) => ({
        memoryId, spaceId: 's2', kind: 'STATEMENT' as const, status: 'ACTIVE' as const, vector: Float32Array.from({ length: DIM }, () => r() - 0.5),
      })));
      // (last in the file: the second space stays; the schema or the in-memory store goes with the run)
      const above400 = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: 400, concurrentBuild: target.name === 'pg' });
      expect(await above400.ensureAnnIndex()).toBe(false);
      expect(await validIndex(db)).toBe(false);
      const above299 = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: 299, concurrentBuild: target.name === 'pg' });
      expect(await above299.ensureAnnIndex()).toBe(true);
      expect(await validIndex(db)).toBe(true);
    });
  });
}
