import type { MemoryKind, MemoryStatus } from '../core/types.js';
import type { Tx } from '../ports/memory-store.js';
import type { MemoryDeps } from './deps.js';
import { VectorIndexError, type VectorHit, type VectorSearch } from '../ports/vector-index.js';

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

/**
 * A new memory's vector written with the memory itself (`NewMemory.vector`, one statement):
 * the system-of-record copy, which is the index itself for an engine that searches it
 * (pgvector). `indexStored` does the rest once that statement ran.
 */
export function vectorWithMemory(deps: MemoryDeps, vector: Float32Array | null): { embedder: string; vector: Float32Array } | null {
  return vector ? { embedder: deps.embedder.id, vector } : null;
}

/** After the store wrote the vector with the memory: the engine's own write (or the outbox row). */
export async function indexStored(
  deps: MemoryDeps, tx: Tx, item: { memoryId: string; spaceId: string; kind: MemoryKind; status: MemoryStatus; vector: Float32Array },
): Promise<void> {
  if (deps.index.capabilities.storeVectors) {
    deps.index.stored?.([item]);
    return;
  }
  if (deps.index.capabilities.transactional) {
    await deps.index.upsert([item], tx);
    return;
  }
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

/**
 * A search of the space is coming and its vector is being embedded (in the embedder's worker
 * thread, or by a remote service): the engine reads ahead meanwhile (`VectorIndex.prepare`;
 * pgvector: its vector mirror caught up). A hint: a failure here is the search's to report.
 */
export async function prepareSearch(
  deps: MemoryDeps, spaceId: string, kind: MemoryKind, statuses?: readonly MemoryStatus[], exact?: boolean,
): Promise<void> {
  try {
    await deps.index.prepare?.(spaceId, kind, statuses, exact);
  } catch {
    // the search that follows reads what it needs, and reports what fails
  }
}

/**
 * Nearest neighbours as recognition and recall must see them: the engine's hits
 * plus memories whose outbox rows are not applied yet (read your writes; asked
 * first, so a row applied in between is still seen by the engine), and, when an
 * engine outside PostgreSQL is down, an exact scan of PostgreSQL's copy instead.
 */
export async function searchVectors(deps: MemoryDeps, search: VectorSearch, tx?: Tx): Promise<VectorHit[]> {
  return scored(await engineHits(deps, search, tx));
}

/**
 * Hits with a score (a number): a vector whose length vanished or overflowed in an engine's
 * float32 arithmetic (a client's, stored before remember kept client vectors at unit length) is
 * scored NaN, near nothing; as a hit it made recall answer "Unexpected error.".
 */
function scored(hits: VectorHit[]): VectorHit[] {
  return hits.filter((h) => Number.isFinite(h.score));
}

async function engineHits(deps: MemoryDeps, search: VectorSearch, tx?: Tx): Promise<VectorHit[]> {
  if (deps.index.capabilities.transactional || !deps.outbox) return deps.index.search(search, tx);
  // The engine is being rebuilt from PostgreSQL (it was lost or older than the store): exact scan meanwhile.
  if (deps.outbox.rebuilding) return deps.outbox.fallbackHits(search, tx);
  const pending = await deps.outbox.pendingHits(search, tx);
  let hits: VectorHit[];
  try {
    hits = await deps.index.search(search);
  } catch (e) {
    if (!(e instanceof VectorIndexError)) throw e;
    deps.log.warn({ engine: deps.index.name, cause: String(e.cause ?? e.message) }, 'vector engine unavailable: exact scan of PostgreSQL instead');
    hits = await deps.outbox.fallbackHits(search, tx);
  }
  const best = new Map<string, number>();
  for (const h of [...hits, ...pending]) best.set(h.memoryId, Math.max(best.get(h.memoryId) ?? -Infinity, h.score));
  return [...best].map(([memoryId, score]) => ({ memoryId, score })).sort((a, b) => b.score - a.score).slice(0, search.k);
}
