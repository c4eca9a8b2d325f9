import type { IndexedVector, VectorHit, VectorSearch } from '../ports/vector-index.js';
import type { MemoryKind, MemoryStatus } from '../core/types.js';
import { parseVector, toPgVectorParam } from '../core/vectors.js';
import type { Queryable } from './sql-client.js';

const METRIC_OP = { cosine: '<=>', l2: '<->' } as const;

/** Exact nearest neighbours from memory_vectors, with the engine filters (space, kind, status) and `extra`. */
export async function exactSearch(q: Queryable, s: VectorSearch, extra: string, extraParams: unknown[]): Promise<VectorHit[]> {
  const metric = s.metric ?? 'cosine';
  const op = METRIC_OP[metric];
  const r = await q.query<{ memory_id: string; d: number }>(
    `select v.memory_id, v.embedding ${op} $1::vector as d
     from memory_vectors v join memory_state st on st.memory_id = v.memory_id
     where v.space_id = $2 and v.kind = $3 and st.status = any($4::text[]) and ${extra}
     order by (v.embedding ${op} $1::vector) + 0, v.memory_id limit $5`,
    [toPgVectorParam(s.vector), s.spaceId, s.kind ?? 'STATEMENT', s.statuses ?? ['ACTIVE'], s.k, ...extraParams],
  );
  return r.rows.map((x) => ({ memoryId: x.memory_id, score: metric === 'cosine' ? 1 - Number(x.d) : -Number(x.d) }));
}

/**
 * Vectors with their present status, as an engine should hold them: by ids, or
 * one page of all of them in memory_id order (reindex walks the table with `after`).
 */
export async function readIndexedVectors(
  q: Queryable, dimensions: number, sel: { ids: readonly string[] } | { after: string | null; limit: number },
): Promise<IndexedVector[]> {
  const cols = `select v.memory_id, v.space_id, v.kind, s.status, v.embedding::text as embedding
     from memory_vectors v join memory_state s on s.memory_id = v.memory_id`;
  const r = 'ids' in sel
    ? await q.query<VectorRow>(`${cols} where v.memory_id = any($1::text[])`, [sel.ids])
    : await q.query<VectorRow>(`${cols} where ($1::text is null or v.memory_id > $1) order by v.memory_id limit $2`, [sel.after, sel.limit]);
  return r.rows.map((x) => ({
    memoryId: x.memory_id, spaceId: x.space_id, kind: x.kind, status: x.status, vector: parseVector(x.embedding, dimensions),
  }));
}

interface VectorRow { memory_id: string; space_id: string; kind: MemoryKind; status: MemoryStatus; embedding: string }
