import { mkdir } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite/vector';
import type { Queryable, QueryResult, SqlClient } from './sql-client.js';

/** PGlite (embedded PostgreSQL with pgvector) behind `SqlClient`. `:memory:` keeps nothing on disk. */
export class PgliteClient implements SqlClient {
  readonly driver = 'pglite' as const;
  private count = 0;
  private constructor(private db: PGlite) {}

  static async open(dataDir: string): Promise<PgliteClient> {
    // PGlite creates the data directory itself but not its parents (`.engram/data` on a fresh clone).
    if (dataDir !== ':memory:' && !dataDir.includes('://')) await mkdir(dirname(resolve(dataDir)), { recursive: true });
    const db =
      dataDir === ':memory:'
        ? await PGlite.create({ extensions: { vector } })
        : await PGlite.create(dataDir, { extensions: { vector } });
    return new PgliteClient(db);
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

  async close(): Promise<void> {
    await this.db.close();
  }
}
