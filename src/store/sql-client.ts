/**
 * The one SQL dialect Engram speaks, over two drivers: node-postgres (a real
 * server, `DATABASE_URL`) and PGlite (PostgreSQL compiled to WASM, embedded).
 * Everything above this file sees only `SqlClient`.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<QueryResult<T>>;
}

export interface SqlClient extends Queryable {
  readonly driver: 'pg' | 'pglite';
  /** Runs several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /** Runs `fn` in one transaction; every query of the transaction must go through `tx`. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  close(): Promise<void>;
  /** Runs `fn` on one connection outside a transaction (session settings hold for its statements; VACUUM may run). */
  session?<T>(fn: (q: Queryable) => Promise<T>): Promise<T>;
  /** Statements sent so far (tests count them to catch N+1 patterns). */
  readonly statementCount: number;
}

export class StoreError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'StoreError';
  }
}
