import type { Tx } from './memory-store.js';
import type { VectorHit, VectorSearch } from './vector-index.js';

export type OutboxOp = 'upsert' | 'status' | 'remove' | 'remove_space';

/**
 * Transactional outbox feeding an engine that is not in the system-of-record
 * database (LanceDB, Qdrant). Rows are written in the same transaction as the
 * memory, applied right after commit and by a background worker; until then
 * `pendingHits` lets recognition and recall read their own writes.
 */
export interface Outbox {
  enqueue(tx: Tx, items: { memoryId: string; op: OutboxOp }[]): Promise<void>;
  /** Called after the transaction committed: apply what is pending, never throws. */
  kick(): void;
  /** Exact scores of memories whose outbox rows are not applied yet. */
  pendingHits(search: VectorSearch, tx?: Tx): Promise<VectorHit[]>;
  /** An exact search over the system-of-record copy of the vectors, for when the engine is down. */
  fallbackHits(search: VectorSearch, tx?: Tx): Promise<VectorHit[]>;
}
