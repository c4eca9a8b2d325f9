/**
 * The one SQL dialect Engram speaks, over two drivers: node-postgres (a real
 * server, `DATABASE_URL`) and PGlite (PostgreSQL compiled to WASM, embedded).
 * Everything above this file sees only `SqlClient`.
 */
export interface QueryResult<T> {
  rows: T[];
  rowCount: number;
}

/**
 * Prefix of a statement whose plan is better made once, without its parameters' values
 * (`PREPARE`'s generic plan), than again at every execution: on PGlite, planning in WebAssembly
 * costs more than such a statement runs (docs/operations.md, "PGlite's statements, prepared").
 * PostgreSQL's own choice keeps planning a statement whose generic plan it estimates dearer (a
 * range past a `seq` the planner cannot see, an `= any($1)` of unknown length), though the plan
 * is the same index probe. A comment: a server ignores it.
 */
export const GENERIC_PLAN = '/* engram: generic plan */ ';

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
  /**
   * Transactions that ended rolled back, on a client whose transactions never interleave
   * (PGlite): an in-process copy of table state read inside one may hold what never committed,
   * and starts again when this changes. Undefined on a server.
   */
  readonly rollbacks?: number;
}

export class StoreError extends Error {
  constructor(message: string, override readonly cause?: unknown) {
    super(message);
    this.name = 'StoreError';
  }
}

/**
 * The database cannot answer now: the connection was lost, the server is shutting
 * down or refusing connections, no connection came free in time, or a statement ran
 * past the statement timeout. Nothing is known to have been written by the failed
 * statement; the next request opens a new connection. GraphQL answers it as the
 * typed `Unavailable` error.
 */
export class StoreUnavailableError extends StoreError {
  readonly code = 'UNAVAILABLE';
  constructor(message: string, cause?: unknown) {
    super(message, cause);
    this.name = 'StoreUnavailableError';
  }
}

/** How many `cause` links `unavailableIn` follows: adapters wrap a store error once or twice, never more. */
const CAUSE_DEPTH = 8;

/**
 * The StoreUnavailableError behind `e`: `e` itself or one found along its `cause` chain (a vector
 * engine's adapter error, a GraphQL error's original error), at most CAUSE_DEPTH links deep; null
 * when there is none. A lost connection stays the typed `Unavailable` however it was wrapped.
 */
export function unavailableIn(e: unknown): StoreUnavailableError | null {
  let at: unknown = e;
  for (let i = 0; i <= CAUSE_DEPTH && at != null; i++) {
    if (at instanceof StoreUnavailableError) return at;
    if (typeof at !== 'object') return null;
    const next = (at as { originalError?: unknown }).originalError ?? (at as { cause?: unknown }).cause;
    if (next === at) return null;
    at = next;
  }
  return null;
}
