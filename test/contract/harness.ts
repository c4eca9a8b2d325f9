/**
 * The engines the contract suite runs against, each over a real system of
 * record (PGlite, or the PostgreSQL server at DATABASE_URL) and a real engine
 * (LanceDB in a temporary directory, Qdrant at QDRANT_URL). Nothing here
 * stands in for a database: the only wrapper (`UnreliableIndex`) delegates to
 * the real adapter and refuses writes on demand, to play an engine outage.
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import type { IndexedVector, VectorHit, VectorIndex, VectorSearch } from '../../src/ports/vector-index.js';
import { VectorIndexError } from '../../src/ports/vector-index.js';
import type { MemoryKind, MemoryStatus } from '../../src/core/types.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { migrate } from '../../src/store/migrations.js';
import { SqlStore } from '../../src/store/sql-store.js';
import { SqlOutbox } from '../../src/store/sql-outbox.js';
import type { MemoryDeps } from '../../src/memory/deps.js';
import type { Logger } from '../../src/ports/logger.js';
import type { Embedder } from '../../src/ports/embedder.js';
import { PgvectorIndex } from '../../adapters/pgvector/pgvector-index.js';
import { LanceDbIndex } from '../../adapters/lancedb/lancedb-index.js';
import { QdrantIndex } from '../../adapters/qdrant/qdrant-index.js';
import { testDatabases } from '../helpers/db.js';
import { PgliteClient } from '../../src/store/pglite-client.js';

export const DIM = 512;

export interface OpenEngine {
  db: SqlClient;
  index: VectorIndex;
  /** A new adapter over the same stored data (an engine restart). */
  reopen(): Promise<VectorIndex>;
  /** Rows the engine holds (outside PostgreSQL), for checks after a drain. */
  count(spaceId?: string): Promise<number>;
  close(): Promise<void>;
}

export interface EngineFixture {
  /** Display name, e.g. 'pgvector (pglite)'. */
  label: string;
  engine: 'pgvector' | 'lancedb' | 'qdrant';
  /** Why the engine is skipped on this machine, or null. */
  skip: string | null;
  /**
   * Vectors written in one upsert by the large-batch test: 5,000, except on
   * PGlite, where pgvector maintains its HNSW index in WebAssembly at about
   * 50 ms per vector (5,000 would take minutes of CI); the PostgreSQL-server
   * run covers 5,000 for pgvector.
   */
  largeBatch: number;
  open(): Promise<OpenEngine>;
}

function wanted(): Set<string> | null {
  const e = process.env.ENGINES?.trim();
  return e ? new Set(e.split(',').map((x) => x.trim()).filter(Boolean)) : null;
}

async function migrated(db: SqlClient): Promise<SqlClient> {
  await migrate(db, { dimensions: DIM });
  return db;
}

/** The system of record under the engines outside PostgreSQL: embedded PGlite, in memory. */
async function pgliteDb(): Promise<SqlClient> {
  return migrated(await PgliteClient.open(':memory:'));
}

/**
 * An engine outside PostgreSQL that a test can restart: `reopen` opens a new adapter on
 * the same storage; `close` runs `before` with the last adapter, closes every adapter
 * opened and the system of record, then runs `after`.
 */
async function reopenable<I extends VectorIndex & { count(spaceId?: string): Promise<number> }>(
  db: SqlClient, create: () => I, hooks: { before?: (last: I) => Promise<unknown>; after?: () => Promise<unknown> },
): Promise<OpenEngine> {
  const opened: I[] = [];
  const make = async () => {
    const i = create();
    await i.init();
    opened.push(i);
    return i;
  };
  const index = await make();
  return {
    db, index, reopen: make,
    count: (spaceId) => opened[opened.length - 1].count(spaceId),
    async close() {
      await hooks.before?.(opened[opened.length - 1]);
      for (const i of opened) await i.close();
      await db.close();
      await hooks.after?.();
    },
  };
}

/** pgvector on PGlite: the reference the other engines' recognition is compared with, whatever ENGINES says. */
export function referenceFixture(): EngineFixture {
  return contractEngines({ all: true, quiet: true }).find((f) => f.label === 'pgvector (pglite)')!;
}

/** Every engine of the suite, narrowed by ENGINES=pgvector,lancedb,qdrant. */
export function contractEngines(opts: { all?: boolean; quiet?: boolean } = {}): EngineFixture[] {
  const out: EngineFixture[] = [];
  for (const tdb of opts.quiet ? testDatabases().slice(0, 1) : testDatabases()) {
    out.push({
      label: `pgvector (${tdb.name})`, engine: 'pgvector', skip: null, largeBatch: tdb.name === 'pglite' ? 1_000 : 5_000,
      async open() {
        const db = await migrated(await tdb.open());
        const make = async () => {
          const i = new PgvectorIndex(db, { embedder: 'contract' });
          await i.init();
          return i;
        };
        const index = await make();
        return {
          db, index, reopen: make,
          count: async (spaceId) => Number((await db.query<{ n: number }>(
            `select count(*)::int as n from memory_vectors where ($1::text is null or space_id = $1)`, [spaceId ?? null])).rows[0].n),
          close: () => db.close(),
        };
      },
    });
  }
  out.push({
    label: 'lancedb', engine: 'lancedb', skip: null, largeBatch: 5_000,
    async open() {
      const db = await pgliteDb();
      const dir = await mkdtemp(join(tmpdir(), 'engram-contract-lancedb-'));
      return reopenable(db, () => new LanceDbIndex({ dir, embedderId: 'contract', dimensions: DIM, compaction: { everyWrites: 20 } }),
        { after: () => rm(dir, { recursive: true, force: true }) });
    },
  });
  const qdrantUrl = process.env.QDRANT_URL;
  // Cosine (the default) and L2 (a Euclid collection, which also answers cosine for unit vectors).
  for (const metric of ['cosine', 'l2'] as const) {
    out.push({
      label: metric === 'cosine' ? 'qdrant' : 'qdrant (l2)', engine: 'qdrant', largeBatch: 5_000,
      skip: qdrantUrl ? null : 'QDRANT_URL is not set (no Qdrant server on this machine): start one with `docker compose up -d qdrant` and set QDRANT_URL=http://127.0.0.1:6333',
      async open() {
        const db = await pgliteDb();
        const collection = `engram_contract_${randomUUID().slice(0, 8)}`;
        return reopenable(db,
          () => new QdrantIndex({ url: qdrantUrl!, apiKey: process.env.QDRANT_API_KEY || undefined, embedderId: 'contract', dimensions: DIM, collection, metric }),
          { before: (last) => last.dropCollection().catch(() => {}) });
      },
    });
  }
  const only = opts.all ? null : wanted();
  const picked = only ? out.filter((f) => only.has(f.engine) || only.has(f.label)) : out;
  if (!opts.quiet) for (const f of picked) {
    if (f.skip) process.stderr.write(`notice: contract suite for ${f.label} is SKIPPED: ${f.skip}\n`);
  }
  return picked;
}

// ---------------------------------------------------------------- vectors

import { rng } from '../../src/core/random.js';
export { rng };

/** `n` deterministic random unit vectors of `dim` dimensions. */
export function unitVectors(n: number, seed: number, dim = DIM): Float32Array[] {
  const r = rng(seed);
  const out: Float32Array[] = [];
  for (let i = 0; i < n; i++) {
    const v = new Float32Array(dim);
    let s = 0;
    for (let j = 0; j < dim; j++) {
      const g = Math.sqrt(-2 * Math.log(r() || 1e-12)) * Math.cos(2 * Math.PI * r());
      v[j] = g;
      s += g * g;
    }
    const inv = 1 / Math.sqrt(s);
    for (let j = 0; j < dim; j++) v[j] *= inv;
    out.push(v);
  }
  return out;
}

/** A unit vector close to `v` (cosine ≈ 1 - noise²/2). */
export function near(v: Float32Array, noise: number, seed: number): Float32Array {
  const [d] = unitVectors(1, seed, v.length);
  const out = new Float32Array(v.length);
  let s = 0;
  for (let j = 0; j < v.length; j++) {
    out[j] = v[j] + noise * d[j];
    s += out[j] * out[j];
  }
  const inv = 1 / Math.sqrt(s);
  for (let j = 0; j < v.length; j++) out[j] *= inv;
  return out;
}

export function cosineOf(a: Float32Array, b: Float32Array): number {
  let d = 0, na = 0, nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return d / Math.sqrt(na * nb);
}

export function l2Of(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] - b[i]) ** 2;
  return Math.sqrt(s);
}

// ---------------------------------------------------------------- seeding

/**
 * Writes vectors the way the system does: memories and their state in
 * PostgreSQL (pgvector joins the status from there), then the engine.
 */
export class Seeder {
  constructor(readonly db: SqlClient, readonly index: VectorIndex) {}

  async space(): Promise<string> {
    const id = randomUUID();
    await new SqlStore(this.db).createSpace({ id, name: `contract ${id.slice(0, 8)}`, sealed: true, timeZone: 'UTC' });
    return id;
  }

  /** Inserts memories (bulk SQL on the real store tables) and upserts their vectors into the engine in one call. */
  async put(spaceId: string, vectors: Float32Array[], opts: { kind?: MemoryKind; status?: MemoryStatus } = {}): Promise<IndexedVector[]> {
    const kind = opts.kind ?? 'STATEMENT';
    const status = opts.status ?? 'ACTIVE';
    const items: IndexedVector[] = vectors.map((vector) => ({ memoryId: randomUUID(), spaceId, kind, status, vector }));
    const ids = items.map((i) => i.memoryId);
    await this.db.transaction(async (tx) => {
      await tx.query(
        `insert into memories (id, space_id, kind, type, quote, normalized, said_at)
         select id, $2, $3, 'FACT', 'contract ' || id, 'contract ' || id, now() from unnest($1::text[]) as x(id)`,
        [ids, spaceId, kind],
      );
      await tx.query(
        `insert into memory_state (memory_id, space_id, kind, type, status, last_mentioned_at)
         select id, $2, $3, 'FACT', $4, now() from unnest($1::text[]) as x(id)`,
        [ids, spaceId, kind, status],
      );
      if (this.index.capabilities.transactional) await this.index.upsert(items, tx);
    });
    if (!this.index.capabilities.transactional) await this.index.upsert(items);
    return items;
  }

  async setStatus(ids: string[], status: MemoryStatus): Promise<void> {
    await this.db.query(`update memory_state set status = $2 where memory_id = any($1::text[])`, [ids, status]);
    await this.index.setStatus(ids, status);
  }
}

// ---------------------------------------------------------------- use-case wiring

const silent = pino({ level: 'silent' }) as unknown as Logger;

/**
 * The use cases' dependencies over a given engine, wired like src/container.ts:
 * pgvector in the transaction, any other engine through the SQL outbox.
 */
export function depsFor(db: SqlClient, index: VectorIndex, embedder: Embedder): { deps: MemoryDeps; outbox: SqlOutbox | null } {
  const outbox = index.capabilities.transactional ? null : new SqlOutbox(db, index, silent, { dimensions: embedder.dimensions, intervalMs: 200 });
  const deps: MemoryDeps = {
    store: new SqlStore(db), index, embedder, clock: { now: () => new Date() }, bus: { publish: () => {} }, log: silent,
    thresholds: embedder.thresholds, outbox, candidateK: 10,
  };
  return { deps, outbox };
}

/**
 * The real adapter behind a switch: while `writesDown`, every write fails the
 * way an unreachable engine fails (VectorIndexError); reads still go through.
 * `swap` puts a freshly reopened adapter behind it (an engine restart).
 */
export class UnreliableIndex implements VectorIndex {
  writesDown = false;
  failedWrites = 0;
  constructor(public inner: VectorIndex) {}
  get name(): string { return this.inner.name; }
  get capabilities() { return this.inner.capabilities; }
  init(): Promise<void> { return this.inner.init(); }
  private gate(): void {
    if (this.writesDown) {
      this.failedWrites++;
      throw new VectorIndexError(this.inner.name, 'engine unavailable (writes refused by the test)');
    }
  }
  async upsert(items: IndexedVector[], tx?: unknown): Promise<void> { this.gate(); return this.inner.upsert(items, tx); }
  async setStatus(ids: string[], status: MemoryStatus, tx?: unknown): Promise<void> { this.gate(); return this.inner.setStatus(ids, status, tx); }
  async remove(ids: string[], tx?: unknown): Promise<void> { this.gate(); return this.inner.remove(ids, tx); }
  async removeSpace(spaceId: string, tx?: unknown): Promise<void> { this.gate(); return this.inner.removeSpace(spaceId, tx); }
  search(q: VectorSearch, tx?: unknown): Promise<VectorHit[]> { return this.inner.search(q, tx); }
  close(): Promise<void> { return this.inner.close(); }
  swap(next: VectorIndex): void { this.inner = next; }
}
