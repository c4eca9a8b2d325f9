import type { VectorSearch } from '../../src/ports/vector-index.js';
import { toPgVectorParam } from '../../src/core/vectors.js';
import type { Queryable } from '../../src/store/sql-client.js';
import { statusWindow, type Row } from './pgvector-quantised.js';

/**
 * The exact scan: every vector of the space and kind, the distance computed once
 * (the subquery is kept apart by OFFSET 0, so the planner neither computes the
 * distance twice nor walks the HNSW index). Statuses are read for the nearest
 * `max(2 k, k + 50)` only, not joined for the whole space: when at least k of them
 * have a wanted status those are the exact top k of the wanted rows (every row
 * outside the window is farther than each row in it); otherwise (a space mostly
 * muted, say) the scan runs again with the status joined.
 */
export async function exactInSql(q: Queryable, s: VectorSearch, op: string, kind: string, statuses: string[]): Promise<Row[]> {
  const vector = toPgVectorParam(s.vector);
  const window = statusWindow(s.k);
  const near = await q.query<{ memory_id: string; d: number; status: string }>(
    `select x.memory_id, x.d, st.status from (
       select memory_id, d from (
         select v.memory_id, v.embedding ${op} $1::vector as d
         from memory_vectors v where v.space_id = $2 and v.kind = $3 offset 0
       ) y order by d limit $4
     ) x left join memory_state st on st.memory_id = x.memory_id
     order by x.d`,
    [vector, s.spaceId, kind, window],
  );
  const wanted = new Set(statuses);
  const kept = near.rows.filter((x) => wanted.has(x.status));
  if (kept.length >= s.k || near.rows.length < window) return kept.slice(0, s.k);
  const r = await q.query<{ memory_id: string; d: number }>(
    `select memory_id, d from (
       select v.memory_id, v.embedding ${op} $1::vector as d
       from memory_vectors v join memory_state st on st.memory_id = v.memory_id
       where v.space_id = $2 and v.kind = $3 and st.status = any($4::text[]) offset 0
     ) x order by d limit $5`,
    [vector, s.spaceId, kind, statuses, s.k],
  );
  return r.rows;
}
