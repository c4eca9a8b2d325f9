import type { MemoryKind, MemoryStatus } from '../core/types.js';
import type { Tx } from '../ports/memory-store.js';
import type { MemoryDeps } from './deps.js';

/**
 * Puts a new vector where it belongs: the system-of-record copy always; the
 * engine in the same transaction when it lives in the database (pgvector),
 * otherwise through the outbox.
 */
export async function indexNew(
  deps: MemoryDeps, tx: Tx, item: { memoryId: string; spaceId: string; kind: MemoryKind; status: MemoryStatus; vector: Float32Array },
): Promise<void> {
  if (deps.index.capabilities.transactional) {
    await deps.index.upsert([item], tx);
    return;
  }
  await deps.store.putVector(tx, { memoryId: item.memoryId, spaceId: item.spaceId, kind: item.kind, embedder: deps.embedder.id, vector: item.vector });
  await deps.outbox!.enqueue(tx, [{ memoryId: item.memoryId, op: 'upsert' }]);
}

/** Propagates status changes to an engine that keeps its own copy of the status. */
export async function indexStatus(deps: MemoryDeps, tx: Tx, ids: string[], status: MemoryStatus): Promise<void> {
  if (ids.length === 0) return;
  if (deps.index.capabilities.transactional) await deps.index.setStatus(ids, status, tx);
  else await deps.outbox!.enqueue(tx, ids.map((memoryId) => ({ memoryId, op: 'status' as const })));
}

/** Removes vectors of forgotten memories from the engine. */
export async function indexRemove(deps: MemoryDeps, tx: Tx, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  if (deps.index.capabilities.transactional) await deps.index.remove(ids, tx);
  else await deps.outbox!.enqueue(tx, ids.map((memoryId) => ({ memoryId, op: 'remove' as const })));
}
