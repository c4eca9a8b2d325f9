/**
 * Bulk preload of N memories: the rows `SqlStore.insertMemory` writes (memories,
 * memory_state, the ORIGINAL mention, the lexicon entry), one multi-row statement
 * per table per batch of 1,000 instead of four statements per memory; vectors
 * through the engine's own write path: `VectorIndex.upsert` in the transaction for
 * pgvector, the system-of-record copy plus `Outbox.enqueue` for outbox engines.
 * Row by row this took ~20 ms per memory on PGlite on the bench machine (100K:
 * half an hour); the per-memory path is what the sampled remember() calls measure.
 */
import type { Queryable } from '../src/store/sql-client.js';
import type { IndexedVector } from '../src/ports/vector-index.js';
import { toPgVectorParam } from '../src/core/vectors.js';
import type { MemoryDeps } from '../src/memory/deps.js';

export interface PreloadRow { id: string; spaceId: string; type: string; quote: string; normalized: string; lexical: string; vector: Float32Array }

export async function insertBatch(deps: MemoryDeps, tx: Queryable, rows: PreloadRow[], saidAt: Date): Promise<void> {
  const ids = rows.map((r) => r.id);
  const sp = rows.map((r) => r.spaceId);
  const types = rows.map((r) => r.type);
  await tx.query(
    `insert into memories (id, space_id, kind, type, quote, normalized, said_at)
     select id, sp, 'STATEMENT', ty, q, nz, $6 from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[]) as x(id, sp, ty, q, nz)`,
    [ids, sp, types, rows.map((r) => r.quote), rows.map((r) => r.normalized), saidAt],
  );
  await tx.query(
    `insert into memory_state (memory_id, space_id, kind, type, last_mentioned_at, embedding_status)
     select id, sp, 'STATEMENT', ty, $4, 'OK' from unnest($1::text[], $2::text[], $3::text[]) as x(id, sp, ty)`,
    [ids, sp, types, saidAt],
  );
  await tx.query(
    `insert into mentions (id, memory_id, space_id, quote, said_at, tier, score)
     select id || ':0', id, sp, q, $4, 'ORIGINAL', null from unnest($1::text[], $2::text[], $3::text[]) as x(id, sp, q)`,
    [ids, sp, rows.map((r) => r.quote), saidAt],
  );
  await tx.query(
    `insert into memory_lexicon (memory_id, space_id, doc)
     select id, sp, to_tsvector('simple', t) from unnest($1::text[], $2::text[], $3::text[]) as x(id, sp, t)`,
    [ids, sp, rows.map((r) => r.lexical)],
  );
  const items: IndexedVector[] = rows.map((r) => ({ memoryId: r.id, spaceId: r.spaceId, kind: 'STATEMENT', status: 'ACTIVE', vector: r.vector }));
  if (deps.index.capabilities.transactional) {
    await deps.index.upsert(items, tx);
    return;
  }
  // What indexNew does per memory for an outbox engine, in one statement per batch.
  await tx.query(
    `insert into memory_vectors (memory_id, space_id, kind, embedder, embedding)
     select id, sp, 'STATEMENT', $3, v::vector from unnest($1::text[], $2::text[], $4::text[]) as x(id, sp, v)`,
    [ids, sp, deps.embedder.id, rows.map((r) => toPgVectorParam(r.vector))],
  );
  await deps.outbox!.enqueue(tx, ids.map((memoryId) => ({ memoryId, op: 'upsert' as const })));
}
