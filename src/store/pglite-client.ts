import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import type { Queryable, QueryResult, SqlClient } from './sql-client.js';
import { DataDirLock, restrictPermissions } from './data-dir-lock.js';

export interface PgliteOpenOptions {
  /** Who takes the data directory's lock ('server', or the CLI command): docs/ownership.md. */
  owner?: string;
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
 * A freshly initialised cluster, dumped once (`writeTemplate`) and loaded by every later open of
 * a new store (`:memory:`, or a directory that does not hold a cluster yet) instead of running
 * initdb again. initdb is seconds of synchronous WebAssembly (measured: 30 s of blocked event
 * loop on a loaded 2-core machine, 3 s from a template), which a process that opens many
 * throwaway stores (the test suite) cannot afford.
 */
let template: { file: string; blob?: Promise<Blob> } | null = null;
const templateBlob = (): Promise<Blob> | undefined => {
  if (!template) return undefined;
  template.blob ??= readFile(template.file).then((b) => new Blob([b]));
  return template.blob;
};

/** PGlite (embedded PostgreSQL with pgvector) behind `SqlClient`. `:memory:` keeps nothing on disk. */
export class PgliteClient implements SqlClient {
  readonly driver = 'pglite' as const;
  private count = 0;
  private constructor(private db: PGlite, readonly dataDir: string | null, private lock: DataDirLock | null) {}

  static async open(dataDir: string, opts: PgliteOpenOptions = {}): Promise<PgliteClient> {
    if (dataDir === ':memory:' || dataDir.includes('://')) {
      const fresh = dataDir === ':memory:' ? templateBlob() : undefined;
      if (fresh) return new PgliteClient(await PGlite.create({ extensions: { vector }, loadDataDir: await fresh }), null, null);
      const db = dataDir === ':memory:' ? await PGlite.create({ extensions: { vector } }) : await PGlite.create(dataDir, { extensions: { vector } });
      return new PgliteClient(db, null, null);
    }
    ownerOnlyUmask();
    // PGlite creates the data directory itself but not its parents (`.engram/data` on a fresh clone).
    await mkdir(dirname(resolve(dataDir)), { recursive: true, mode: 0o700 });
    // One process owns the directory: a second PGlite on it would corrupt the store.
    const lock = DataDirLock.acquire(dataDir, opts.owner ?? 'server');
    try {
      const fresh = existsSync(join(dataDir, 'PG_VERSION')) ? undefined : templateBlob();
      const db = await PGlite.create(dataDir, { extensions: { vector }, ...(fresh ? { loadDataDir: await fresh } : {}) });
      restrictPermissions(resolve(dataDir));
      return new PgliteClient(db, resolve(dataDir), lock);
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  /** Writes a dump of a freshly initialised (empty, unmigrated) cluster to `file`. */
  static async writeTemplate(file: string): Promise<void> {
    const db = await PGlite.create({ extensions: { vector } });
    try {
      await writeFile(file, new Uint8Array(await (await db.dumpDataDir('none')).arrayBuffer()), { mode: 0o600 });
    } finally {
      await db.close();
    }
  }

  /** Later opens of a new store in this process load `file` (from `writeTemplate`); null: initdb again. */
  static useTemplate(file: string | null): void {
    template = file ? { file } : null;
  }

  get statementCount(): number {
    return this.count;
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    this.count++;
    const r = await this.db.query<T>(sql, params as unknown[]);
    return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
  }

  async exec(sql: string): Promise<void> {
    this.count++;
    await this.db.exec(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    return this.db.transaction(async (t) => {
      const tx: Queryable = {
        query: async <R>(sql: string, params: unknown[] = []) => {
          this.count++;
          const r = await t.query<R>(sql, params as unknown[]);
          return { rows: r.rows, rowCount: r.affectedRows ?? r.rows.length };
        },
      };
      return fn(tx);
    });
  }

  /** Records the server's address in the data directory's lock (CLI commands reach it there). */
  setAddress(port: number, url: string): void {
    this.lock?.setAddress(port, url);
  }

  async close(): Promise<void> {
    try {
      await this.db.close();
    } finally {
      if (this.dataDir) restrictPermissions(this.dataDir);
      this.lock?.release();
      this.lock = null;
    }
  }
}
