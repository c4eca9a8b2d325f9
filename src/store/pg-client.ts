import pg from 'pg';
import type { Queryable, QueryResult, SqlClient } from './sql-client.js';

/** node-postgres pool behind `SqlClient`. */
export class PgClient implements SqlClient {
  readonly driver = 'pg' as const;
  private pool: pg.Pool;
  private count = 0;

  /** The server's address (a LISTEN connection of its own is opened from it: src/graphql/pg-events.ts). */
  constructor(readonly connectionString: string, max = 10) {
    this.pool = new pg.Pool({ connectionString, max });
    // An idle client error must not crash the process; the next query reports it.
    this.pool.on('error', () => {});
  }

  get statementCount(): number {
    return this.count;
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    this.count++;
    const r = await this.pool.query(sql, params as unknown[]);
    return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
  }

  async exec(sql: string): Promise<void> {
    this.count++;
    await this.pool.query(sql);
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    const tx: Queryable = {
      query: async <R>(sql: string, params: unknown[] = []) => {
        this.count++;
        const r = await client.query(sql, params as unknown[]);
        return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
      },
    };
    try {
      await client.query('BEGIN');
      const out = await fn(tx);
      await client.query('COMMIT');
      return out;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => {});
      throw e;
    } finally {
      client.release();
    }
  }

  async session<T>(fn: (q: Queryable) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    try {
      return await fn({
        query: async <R>(sql: string, params: unknown[] = []) => {
          this.count++;
          const r = await client.query(sql, params as unknown[]);
          return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
        },
      });
    } finally {
      // Session settings must not leak into the pool: the connection is discarded.
      client.release(true);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
