import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import type { Queryable, QueryResult, SqlClient } from './sql-client.js';
import { PreparedStatements } from './pglite-prepared.js';
import { DataDirLock, restrictPermissions } from './data-dir-lock.js';
import { parseTimestamptz } from './pg-timestamp.js';
import { DurableNodeFS, durableStartParams, syncTree } from './pglite-durable.js';

/** PostgreSQL's type oid of `timestamptz`. */
const TIMESTAMPTZ_OID = 1184;

export interface PgliteOpenOptions {
  /** Who takes the data directory's lock ('server', or the CLI command): docs/ownership.md. */
  owner?: string;
  /**
   * The vector dimension the store will be migrated for: a new store loads the template migrated
   * for it, if one is installed (`useTemplate`), instead of the unmigrated one.
   */
  dimensions?: number;
  /** PostgreSQL's buffer pool (default DEFAULT_PGLITE_SHARED_BUFFERS; docs/operations.md#memory). */
  sharedBuffers?: string;
}

/**
 * PGlite's buffer pool. PostgreSQL's default (128 MB) is all resident in PGlite from the
 * start (its WebAssembly memory is written through at boot): 281 MB RSS after opening an
 * empty store, 172 MB with 16 MB, and the open is faster. Pages the pool does not hold are
 * read from the data directory through the OS page cache, so a smaller pool costs a read
 * per page missed, not a disk seek (measured: docs/bench-rounds.md, "Start and footprint, the first passes").
 */
export const DEFAULT_PGLITE_SHARED_BUFFERS = '32MB';

/**
 * Every session of the embedded store. Its events are published in process
 * (src/graphql/live-events.ts) and it has no notification trigger (migration 20).
 *
 * `wal_recycle = off` from the start, not only in the erasure (src/store/erasure.ts): every
 * checkpoint before the erasure's (crash recovery's end-of-recovery one, the shutdown one, one
 * forced by max_wal_size) would otherwise rename an older WAL segment to a future name for reuse,
 * its bytes intact, and the erasure's WAL switch later moved into it: after a kill -9 between the
 * erasure's switch and its checkpoint, the restart's recovery recycled the segment that held the
 * forgotten words, the owed erasure switched into it, and the words stayed in the current segment
 * (pages past the first still the old one's: every one of 12 kills aimed between the
 * switch and the checkpoint, 3 of 17 at random delays). A segment is now removed and
 * a new one made instead (zero-filled: `wal_init_zero`).
 */
function startParams(sharedBuffers = DEFAULT_PGLITE_SHARED_BUFFERS, durable = false): string[] {
  return [...(durable ? durableStartParams() : PGlite.defaultStartParams), '-c', `shared_buffers=${sharedBuffers}`, '-c', 'wal_recycle=off'];
}

/** Files created from here on are the owner's alone (0600 / 0700). Not settable in worker threads. */
export function ownerOnlyUmask(): void {
  try {
    process.umask(0o077);
  } catch {
    // worker thread: the permissions walk on open and close still applies
  }
}

/**
 * Templates: a freshly initialised cluster, dumped once (`writeTemplate`) and loaded by every later
 * open of a new store (`:memory:`, or a directory that does not hold a cluster yet) instead of
 * running initdb again; optionally also clusters already migrated for a vector dimension, loaded
 * by an open that names that dimension (its migrations then find nothing to do). initdb is
 * seconds of synchronous WebAssembly (measured: 30 s of blocked event loop on a loaded 2-core
 * machine, 3 s from a template) and the migrations about as long again as loading a template,
 * which a process that opens many throwaway stores (the test suite) cannot afford.
 */
export interface PgliteTemplates {
  /** A dump of an initialised, unmigrated cluster. */
  base: string;
  /** Dumps of clusters migrated for a dimension (`migrate(db, { dimensions })`), by dimension. */
  migrated?: Record<number, string>;
}
let templates: PgliteTemplates | null = null;
const blobs = new Map<string, Promise<Blob>>();
function templateBlob(dimensions?: number): Promise<Blob> | undefined {
  if (!templates) return undefined;
  const file = (dimensions !== undefined ? templates.migrated?.[dimensions] : undefined) ?? templates.base;
  let blob = blobs.get(file);
  if (!blob) blobs.set(file, (blob = readFile(file).then((b) => new Blob([b]))));
  return blob;
}

/**
 * PGlite reads every result through a copy of its map of type parsers (`{ ...parsers }`, once per
 * statement), and at start it registers a parser for every array type of the catalog: 316 entries,
 * 211 of them arrays of row types (`pg_class[]`, …) that no statement of the service returns. The
 * copy was ~60 µs of a 120 µs `select 1`. Those 211 are dropped (the map is replaced, not edited,
 * so V8 keeps it a fast object): ~35 µs less per statement, every value parsed as before (arrays
 * of base types, enums and ranges keep their parsers; `test/store/pglite-prepared.test.ts`).
 */
export async function leanParsers(db: PGlite): Promise<PGlite> {
  const rowArrays = new Set((await db.query<{ a: number }>(
    `select typarray::int as a from pg_catalog.pg_type where typtype = 'c' and typarray <> 0`,
  )).rows.map((r) => String(r.a)));
  const kept: Record<string, unknown> = {};
  for (const [k, parse] of Object.entries(db.parsers)) if (!rowArrays.has(k)) kept[k] = parse;
  (db as unknown as { parsers: Record<string, unknown> }).parsers = kept;
  return db;
}

/** PGlite (embedded PostgreSQL with pgvector) behind `SqlClient`. `:memory:` keeps nothing on disk. */
export class PgliteClient implements SqlClient {
  readonly driver = 'pglite' as const;
  private count = 0;
  private rolledBack = 0;
  /** The open's walk of the data directory's permissions (`restrictPermissions`), awaited by close. */
  private permissions: Promise<void> = Promise.resolve();
  /** Parameterised statements run as EXECUTE of a statement prepared once (pglite-prepared.ts). */
  private readonly prepared = new PreparedStatements();
  private constructor(private db: PGlite, readonly dataDir: string | null, private lock: DataDirLock | null, private readonly fs: DurableNodeFS | null = null) {}

  /** The flushes PostgreSQL made to the disk through this store's file system (null in memory): tests. */
  get flushes(): { readonly count: number; readonly recent: readonly string[] } | null {
    return this.fs?.flushes ?? null;
  }

  static async open(dataDir: string, opts: PgliteOpenOptions = {}): Promise<PgliteClient> {
    // Timestamps parsed field by field: PGlite's `new Date(text)` misread years under 100 (pg-timestamp.ts).
    const base = { extensions: { vector }, startParams: startParams(opts.sharedBuffers), parsers: { [TIMESTAMPTZ_OID]: parseTimestamptz } };
    if (dataDir === ':memory:' || dataDir.includes('://')) {
      const fresh = dataDir === ':memory:' ? templateBlob(opts.dimensions) : undefined;
      if (fresh) return new PgliteClient(await leanParsers(await PGlite.create({ ...base, loadDataDir: await fresh })), null, null);
      const db = dataDir === ':memory:' ? await PGlite.create(base) : await PGlite.create(dataDir, base);
      return new PgliteClient(await leanParsers(db), null, null);
    }
    ownerOnlyUmask();
    // PGlite creates the data directory itself but not its parents (`.engram/data` on a fresh clone).
    await mkdir(dirname(resolve(dataDir)), { recursive: true, mode: 0o700 });
    // One process owns the directory: a second PGlite on it would corrupt the store.
    const lock = DataDirLock.acquire(dataDir, opts.owner ?? 'server');
    try {
      const created = !existsSync(join(dataDir, 'PG_VERSION'));
      const fresh = created ? templateBlob(opts.dimensions) : undefined;
      // Without a template, PGlite's own initdb makes the cluster, opened and closed once as before: given a file
      // system of the caller's (below), PGlite runs initdb in that file system rather than in memory, and it
      // fails where the directory already holds a file (our lock).
      if (created && !fresh) await (await PGlite.create(dataDir, base)).close();
      // On disk, PostgreSQL's flushes reach the disk: a commit returns once its log is there (pglite-durable.ts).
      const fs = new DurableNodeFS(dataDir);
      const db = await PGlite.create({ ...base, fs, startParams: startParams(opts.sharedBuffers, true), ...(fresh ? { loadDataDir: await fresh } : {}) });
      // A new cluster was written by PGlite's loader (or initdb), which flushes nothing: flushed once before any write is acknowledged.
      if (created) await syncTree(resolve(dataDir));
      const client = new PgliteClient(await leanParsers(db), resolve(dataDir), lock, fs);
      // Walked while the service starts (the directory itself is 0700 already); close waits for it.
      client.permissions = restrictPermissions(client.dataDir!);
      return client;
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  /**
   * Writes a dump of a freshly initialised cluster to `file`, after `prepare` (e.g. the
   * migrations) if given; in memory, from the installed base template if there is one.
   */
  static async writeTemplate(file: string, prepare?: (db: SqlClient) => Promise<unknown>): Promise<void> {
    const client = await PgliteClient.open(':memory:');
    try {
      if (prepare) await prepare(client);
      await writeFile(file, new Uint8Array(await (await client.db.dumpDataDir('none')).arrayBuffer()), { mode: 0o600 });
    } finally {
      await client.close();
    }
  }

  /** Later opens of a new store in this process load these dumps (from `writeTemplate`); null: initdb again. */
  static useTemplate(t: PgliteTemplates | null): void {
    templates = t;
    blobs.clear();
  }

  get statementCount(): number {
    return this.count;
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    return this.run<T>(this.db, sql, params);
  }

  /** A statement on the session or inside a transaction (`on`): prepared once, counted. */
  private async run<T>(on: Parameters<PreparedStatements['query']>[0], sql: string, params: unknown[]): Promise<QueryResult<T>> {
    this.count++;
    const r = await this.prepared.query<T>(on, sql, params);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  }

  async exec(sql: string): Promise<void> {
    this.count++;
    await this.db.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    try {
      return await this.db.transaction(async (t) => {
        const tx: Queryable = { query: <R>(sql: string, params: unknown[] = []) => this.run<R>(t, sql, params) };
        try {
          return await fn(tx);
        } catch (e) {
          // Counted before PGlite rolls back: no statement runs between the rollback and the count.
          this.rolledBack++;
          throw e;
        }
      });
    } catch (e) {
      this.rolledBack++; // a failed COMMIT too (counted twice otherwise: only a change is read)
      throw e;
    }
  }

  /** See SqlClient.rollbacks. */
  get rollbacks(): number {
    return this.rolledBack;
  }

  /** Records the server's address in the data directory's lock (CLI commands reach it there). */
  setAddress(port: number, url: string): void {
    this.lock?.setAddress(port, url);
  }

  async close(): Promise<void> {
    try {
      await this.db.close();
    } finally {
      await this.permissions;
      if (this.dataDir) await restrictPermissions(this.dataDir);
      this.lock?.release();
      this.lock = null;
    }
  }
}
