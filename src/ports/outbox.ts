import type { Tx } from './memory-store.js';
import type { VectorHit, VectorSearch } from './vector-index.js';

export type OutboxOp = 'upsert' | 'status' | 'remove' | 'remove_space';

/** An outbox row the engine refused `maxAttempts` times: kept, skipped by the drain, retryable. */
export interface ParkedOutboxRow {
  id: number;
  memoryId: string;
  op: OutboxOp;
  attempts: number;
  lastError: string | null;
  createdAt: Date;
}

/** What an operator needs to see of an outbox: rows waiting, and rows parked (dead-lettered). */
export interface OutboxStatus {
  engine: string;
  pending: number;
  parked: number;
  maxAttempts: number;
  /** The oldest parked rows (up to the limit asked), oldest first. */
  parkedRows: ParkedOutboxRow[];
}

/**
 * Transactional outbox feeding an engine that is not in the system-of-record
 * database (LanceDB, Qdrant). Rows are written in the same transaction as the
 * memory, applied right after commit and by a background worker; until then
 * `pendingHits` lets recognition and recall read their own writes. A row the
 * engine keeps refusing is parked after a bounded number of attempts (kept,
 * still read through `pendingHits`, skipped by the drain) until `retryParked`.
 */
export interface Outbox {
  /** True while the engine is rebuilt from PostgreSQL: searches then use `fallbackHits` (docs/engines.md). */
  readonly rebuilding?: boolean;
  enqueue(tx: Tx, items: { memoryId: string; op: OutboxOp }[]): Promise<void>;
  /**
   * Called after the transaction committed: apply what is pending (at once, or gathered with
   * the next commits' rows where the engine asks for it: `gatherWrites`), never throws.
   */
  kick(): void;
  /** Applies what is pending now and returns how many rows; throws when nothing could be applied because the engine fails. */
  drain(): Promise<number>;
  /** Exact scores of memories whose outbox rows are not applied yet. */
  pendingHits(search: VectorSearch, tx?: Tx): Promise<VectorHit[]>;
  /** An exact search over the system-of-record copy of the vectors, for when the engine is down. */
  fallbackHits(search: VectorSearch, tx?: Tx): Promise<VectorHit[]>;
  /** Rows waiting and rows parked (with the oldest parked ones), for operators. */
  status(limit?: number): Promise<OutboxStatus>;
  /** Puts every parked row back in line; returns how many. */
  retryParked(): Promise<number>;
}
