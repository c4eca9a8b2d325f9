import type { VectorSearch } from '../../src/ports/vector-index.js';
import { toPgVectorParam } from '../../src/core/vectors.js';
import type { Queryable } from '../../src/store/sql-client.js';

/**
 * pgvector's two HNSW indexes, their names and definitions. The one on `memory_vectors` is built
 * on the vectors cast to half precision: measured against the index on the float vectors
 * (docs/engines.md, "The HNSW index"), a vector written into a 90K store in 13.3 against 16.6 ms,
 * a faster walk, and no loss of recall@10 on 27K USE-lite embeddings of real sentences (98.1 %
 * against 97.0 % at ef_search 100).
 */
export const HNSW_INDEX = 'memory_vectors_hnsw_half';

/** The float index that HNSW_INDEX replaces: dropped once the new one is built (`PgvectorIndex.ensureAnnIndex`). */
export const FLOAT_HNSW_INDEX = 'memory_vectors_hnsw';

/** The half-precision expression the HNSW index is built on, and which its walk orders by. */
export const halfOf = (expr: string, dim: number) => `(${expr})::halfvec(${dim})`;

/**
 * Name of the HNSW index on the vectors' sign bits (Hamming distance; created lazily with
 * HNSW_INDEX): the first pass of recognition in spaces past `exactScanBelow` vectors.
 */
export const BITS_INDEX = 'memory_vector_bits_hnsw';

/** The two HNSW indexes and their definitions for vectors of `dim` dimensions (the bench drops and rebuilds them around a bulk load). */
export const ANN_INDEXES: readonly { name: string; table: string; using: (dim: number) => string }[] = [
  { name: HNSW_INDEX, table: 'memory_vectors', using: (dim) => `hnsw ((${halfOf('embedding', dim)}) halfvec_cosine_ops)` },
  { name: BITS_INDEX, table: 'memory_vector_bits', using: () => 'hnsw (bq bit_hamming_ops)' },
];

/** Whether an index exists in the current schema, and if so whether it is usable (an interrupted concurrent build leaves it invalid). */
export async function indexState(db: Queryable, name: string): Promise<'valid' | 'invalid' | 'none'> {
  const r = await db.query<{ valid: boolean }>(
    `select x.indisvalid as valid from pg_class c join pg_index x on x.indexrelid = c.oid
     where c.relname = $1 and c.relnamespace = current_schema()::regnamespace`, [name]);
  return r.rows.length === 0 ? 'none' : r.rows[0].valid ? 'valid' : 'invalid';
}

/** The dimensions of `memory_vectors.embedding` (pgvector's type modifier). */
export async function vectorDimensions(db: Queryable): Promise<number> {
  const r = await db.query<{ dim: number }>(
    `select atttypmod as dim from pg_attribute where attrelid = 'memory_vectors'::regclass and attname = 'embedding'`);
  const dim = Number(r.rows[0]?.dim);
  if (!Number.isInteger(dim) || dim < 1) throw new Error('memory_vectors.embedding has no dimensions');
  return dim;
}

/**
 * Drops the index on the float vectors that earlier versions built, if there is one: once the
 * half-precision one is valid nothing walks it, and every insert would still pay its upkeep (on a
 * server `concurrently`: writes go on).
 */
export async function dropFloatIndex(db: Queryable, concurrently: boolean): Promise<void> {
  if ((await indexState(db, FLOAT_HNSW_INDEX)) === 'none') return;
  await db.query(`drop index ${concurrently ? 'concurrently ' : ''}if exists ${FLOAT_HNSW_INDEX}`);
}

/**
 * Approximate: the HNSW index (`walk`: the half-precision one, or the float one of an earlier
 * version until it is replaced), iterative scan (filters applied during the walk), in a
 * transaction (`q`: SET LOCAL needs one). The walk orders by the index's distance; each hit's
 * distance is the float one.
 */
export async function walkHnsw(
  q: Queryable, s: VectorSearch, op: string, kind: string, statuses: string[], walk: 'half' | 'float', efSearch: number,
): Promise<{ memory_id: string; d: number }[]> {
  await q.query(`set local hnsw.iterative_scan = relaxed_order`);
  await q.query(`set local hnsw.ef_search = ${Math.max(efSearch, s.k)}`);
  const dim = s.vector.length;
  const order = walk === 'float' ? `v.embedding ${op} $1::vector` : `${halfOf('v.embedding', dim)} ${op} ${halfOf('$1::vector', dim)}`;
  const r = await q.query<{ memory_id: string; d: number }>(
    `select v.memory_id, v.embedding ${op} $1::vector as d
     from memory_vectors v join memory_state st on st.memory_id = v.memory_id
     where v.space_id = $2 and v.kind = $3 and st.status = any($4::text[])
     order by ${order} limit $5`,
    [toPgVectorParam(s.vector), s.spaceId, kind, statuses, s.k],
  );
  return r.rows;
}
