import type { Table } from '@lancedb/lancedb';
import type { Vector } from 'apache-arrow';
import type { VectorHit, VectorSearch } from '../../src/ports/vector-index.js';
import { signBits, sqlIn, sqlString, unitOf } from './lancedb-schema.js';

/** What a search needs to know of the table it reads. */
export interface SearchedTable {
  table: Table;
  /** The unit layout (lancedb-schema.ts): `vector` is the direction, `norm` the length, `bits` its signs. */
  unit: boolean;
  /** An ANN index (IVF_HNSW_SQ, cosine) covers the vector column. */
  hasAnn: boolean;
}

/** The prefilter of every search: LanceDB applies it before ranking, through the scalar indices. */
export function searchFilter(s: VectorSearch): string {
  return `space_id = ${sqlString(s.spaceId)} AND kind = ${sqlString(s.kind ?? 'STATEMENT')} AND ${sqlIn('status', s.statuses ?? ['ACTIVE'])}`;
}

type Row = { memory_id: string; _distance: number };

/** LanceDB's typings list the float metrics only; the engine takes Hamming on lists of bytes. */
const HAMMING = 'hamming' as unknown as 'l2';

/**
 * Rows of the sign-bit pass reranked exactly: 20 per hit asked, at least 200 (pgvector's
 * window for exact requests, adapters/pgvector/pgvector-quantised.ts).
 */
export function signWindow(k: number): number {
  return Math.max(200, 20 * k);
}

/**
 * One search, one query. Recognition (exact with `minScore`) on the unit layout: the sign-bit
 * pass (signPass). Cosine through the ANN index when there is one and the request is
 * approximate; otherwise a flat, prefiltered scan: on the unit layout LanceDB's dot product of
 * unit vectors (1 - cos, as exact as its cosine), on an older table its cosine. L2 is scanned
 * flat (the index is trained for cosine).
 */
export async function searchLance(at: SearchedTable, s: VectorSearch): Promise<VectorHit[]> {
  const metric = s.metric ?? 'cosine';
  if (s.k <= 0) return [];
  if (metric === 'l2' && at.unit) return l2Scan(at.table, s);
  if (metric === 'cosine' && at.unit && s.exact === true && s.minScore !== undefined) {
    const hits = await signPass(at.table, s, s.minScore);
    if (hits) return hits;
  }
  const filter = searchFilter(s);
  const ann = metric === 'cosine' && s.exact !== true && at.hasAnn;
  const byDot = metric === 'cosine' && at.unit && !ann;
  const vector = byDot ? unitOf(s.vector).vector : s.vector;
  let q = at.table.vectorSearch(vector).column('vector').distanceType(byDot ? 'dot' : metric).where(filter).select(['memory_id', '_distance']).limit(s.k);
  // ef: HNSW candidates per query (LanceDB's default is 1.5 x limit, which under a space
  // prefilter missed the true nearest now and then; 100 still did, once in a loaded CI run
  // of the maintenance test, where half the graph is another space's copies); refine
  // re-ranks on full vectors, so the returned distances are exact, not quantised.
  q = ann ? q.ef(Math.max(200, s.k * 20)).refineFactor(4) : q.bypassVectorIndex();
  const rows = (await q.toArray()) as Row[];
  // LanceDB's cosine and dot distances are 1 - cos and 1 - dot; its l2 is the squared distance.
  return rows
    .map((r) => ({ memoryId: r.memory_id, score: metric === 'cosine' ? 1 - r._distance : -Math.sqrt(Math.max(0, r._distance)) }))
    .sort((a, b) => b.score - a.score);
}

/**
 * Recognition's fast path, one query: the space's rows ranked by the Hamming distance of their
 * sign bits to the query's (64 bytes a row at 512-d, where the flat scan reads 2 KB), the best
 * `signWindow(k)` of them read with their vectors and scored exactly here (dot products of unit
 * vectors: the cosine). Only hits scoring at least `minScore` are returned, which the port allows
 * (nothing below it is weighed). The first pass can only lose a row whose signs differ from the
 * query's in more places than every row of the window: near vectors share most signs (the
 * expected share that differ is their angle / pi), so in practice a far one, but not a bound (a
 * near row whose small components all flip sign is one: the test builds it), as with pgvector's
 * pass. If every row of a full window scores at least `minScore`, rows past it may too: null,
 * and the caller scans exactly.
 */
async function signPass(table: Table, s: VectorSearch, minScore: number): Promise<VectorHit[] | null> {
  const q = unitOf(s.vector).vector;
  const window = signWindow(s.k);
  const data = await table.vectorSearch(signBits(q)).column('bits').distanceType(HAMMING).where(searchFilter(s))
    .select(['memory_id', 'vector', '_distance']).limit(window).bypassVectorIndex().toArrow();
  const ids = data.getChild('memory_id')!;
  const hits: VectorHit[] = [];
  eachVector(data.getChild('vector')!, q.length, (i, values, at) => {
    let dot = 0;
    for (let j = 0; j < q.length; j++) dot += q[j] * values[at + j];
    if (dot >= minScore) hits.push({ memoryId: ids.get(i) as string, score: dot });
  });
  if (data.numRows >= window && hits.length === data.numRows) return null;
  return hits.sort((a, b) => b.score - a.score).slice(0, s.k);
}

/**
 * L2 on the unit layout: |q - n u| from the stored direction and length, over the space's rows
 * read whole. Engram itself searches by cosine; this keeps the port's L2 exact on these tables.
 */
async function l2Scan(table: Table, s: VectorSearch): Promise<VectorHit[]> {
  const data = await table.query().where(searchFilter(s)).select(['memory_id', 'vector', 'norm']).toArrow();
  const ids = data.getChild('memory_id')!;
  const norms = data.getChild('norm')!;
  const hits: VectorHit[] = [];
  eachVector(data.getChild('vector')!, s.vector.length, (i, values, at) => {
    const n = norms.get(i) as number;
    let d = 0;
    for (let j = 0; j < s.vector.length; j++) {
      const x = s.vector[j] - n * values[at + j];
      d += x * x;
    }
    hits.push({ memoryId: ids.get(i) as string, score: -Math.sqrt(d) });
  });
  return hits.sort((a, b) => b.score - a.score).slice(0, s.k);
}

/**
 * Arrow's FixedSizeList column as (row, the chunk's float32 values, the row's first index): no
 * copy per row. A chunk's child values start at its first row: Arrow's slice of a fixed-size list
 * slices its child's values with it, and a batch read from IPC starts at offset 0
 * (`test/contract/lancedb-layout.test.ts` reads sliced and multi-chunk columns).
 */
export function eachVector(column: Vector, dim: number, fn: (row: number, values: Float32Array, at: number) => void): void {
  let row = 0;
  for (const chunk of column.data) {
    const values = chunk.children[0].values as Float32Array;
    for (let i = 0; i < chunk.length; i++) fn(row++, values, i * dim);
  }
}
