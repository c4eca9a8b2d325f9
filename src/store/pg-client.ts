import pg from 'pg';
import type { Queryable, QueryResult, SqlClient } from './sql-client.js';
import { classify, isRetryable } from './pg-errors.js';

export interface PgClientOptions {
  /** PostgreSQL statement_timeout of every connection, ms (0: none). */
  statementTimeoutMs?: number;
  /** Longest wait for a free pooled connection, ms. */
  connectTimeoutMs?: number;
  /** Shown in pg_stat_activity. */
  applicationName?: string;
  /** Attempts of a single statement that failed with a deadlock or serialization failure. */
  retries?: number;
}

/**
 * node-postgres pool behind `SqlClient`. Faults are survived (docs/limits.md#faults):
 * every connection, idle or checked out, has an 'error' listener, so a server that
 * ends a connection never takes the process down; the statement in flight fails with
 * StoreUnavailableError and the broken connection is dropped, so the next request
 * opens a new one. A single statement rolled back by a deadlock or a serialization
 * failure is retried (a failed statement left nothing behind); a transaction is not
 * re-run (its callback may not be idempotent): it fails with the original error.
 */
export class PgClient implements SqlClient {
  readonly driver = 'pg' as const;
  private pool: pg.Pool;
  private count = 0;
  private readonly retries: number;
  /** Connection faults seen (tests and logs read it). */
  faults = 0;

  /** The server's address (a LISTEN connection of its own is opened from it: src/graphql/pg-events.ts). */
  constructor(readonly connectionString: string, max = 10, options: PgClientOptions = {}) {
    const timeout = options.statementTimeoutMs ?? 0;
    this.retries = options.retries ?? 3;
    this.pool = new pg.Pool({
      connectionString, max,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      application_name: options.applicationName ?? 'engram',
      ...(timeout > 0 ? { statement_timeout: timeout } : {}),
    });
    // An idle client's error must not crash the process: the pool drops that client.
    this.pool.on('error', () => { this.faults++; });
    // A checked-out client may lose its connection between two statements (in a transaction).
    this.pool.on('connect', (client) => {
      client.on('error', () => { this.faults++; });
    });
  }

  get statementCount(): number {
    return this.count;
  }

  async query<T>(sql: string, params: unknown[] = []): Promise<QueryResult<T>> {
    for (let attempt = 1; ; attempt++) {
      this.count++;
      try {
        const r = await this.pool.query(sql, params as unknown[]);
        return { rows: r.rows as T[], rowCount: r.rowCount ?? 0 };
      } catch (e) {
        if (attempt < this.retries && isRetryable(e)) {
          await pause(attempt);
          continue;
        }
        throw classify(e);
      }
    }
  }

  async exec(sql: string): Promise<void> {
    this.count++;
    try {
      await this.pool.query(sql);
    } catch (e) {
      throw classify(e);
    }
  }

  async transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (e) {
      throw classify(e);
    }
    let broken: Error | undefined;
    const onError = (e: Error) => { broken = e; };
    client.on('error', onError);
    const tx: Queryable = {
      query: async <R>(sql: string, params: unknown[] = []) => {
        this.count++;
        try {
          const r = await client.query(sql, params as unknown[]);
          return { rows: r.rows as R[], rowCount: r.rowCount ?? 0 };
        } catch (e) {
          throw classify(e);
        }
      },
    };
    try {
      await tx.query('BEGIN');
      const out = await fn(tx);
      await tx.query('COMMIT');
      return out;
    } catch (e) {
      if (!broken) await client.query('ROLLBACK').catch((err: Error) => { broken = err; });
      throw classify(e);
    } finally {
      client.off('error', onError);
      // A client whose connection failed is destroyed, not returned to the pool.
      client.release(broken ?? undefined);
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

/** Short, jittered back-off before retrying a deadlock victim. */
function pause(attempt: number): Promise<void> {
  return new Promise((r) => setTimeout(r, 5 * attempt + Math.random() * 20 * attempt));
}
