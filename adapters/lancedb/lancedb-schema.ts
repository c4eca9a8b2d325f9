import { Field, FixedSizeList, Float32, Schema, Uint8, Utf8 } from 'apache-arrow';
import { norm } from '../../src/core/vectors.js';
import type { IndexedVector } from '../../src/ports/vector-index.js';

/**
 * The LanceDB table layout: one table per embedder (vectors of different
 * embedders are never comparable), one row per memory, the filter columns
 * next to the vector so prefilters never leave the table.
 *
 * `unit` (every table created since the layout has a `norm` column): `vector` holds the
 * unit-length direction and `norm` the length, so a cosine search is LanceDB's dot product
 * on unit vectors (its cosine recomputes both norms for every row and took 2.5 times as
 * long on a flat scan); L2 is computed from both (lancedb-search.ts). `bits`, the sign of
 * each component (64 bytes at 512-d, a 32nd of the vector), is recognition's first pass
 * (Hamming distance), reranked exactly. Older tables hold the vector as given and are
 * searched as before until `engram reindex --engine lancedb`.
 */
export function vectorSchema(dimensions: number, unit = true): Schema {
  return new Schema([
    new Field('memory_id', new Utf8(), false),
    new Field('space_id', new Utf8(), false),
    new Field('kind', new Utf8(), false),
    new Field('status', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
    ...(unit ? [
      new Field('norm', new Float32(), false),
      new Field('bits', new FixedSizeList(Math.ceil(dimensions / 8), new Field('item', new Uint8(), true)), false),
    ] : []),
  ]);
}

/** The sign bits of a vector, 8 to a byte (bit i % 8 of byte i / 8 set where component i is > 0). */
export function signBits(v: ArrayLike<number>): number[] {
  const out = new Array<number>(Math.ceil(v.length / 8)).fill(0);
  for (let i = 0; i < v.length; i++) if (v[i] > 0) out[i >> 3] |= 1 << (i & 7);
  return out;
}

/** Whether a table's schema is the unit layout (see vectorSchema). */
export function isUnitLayout(schema: Schema): boolean {
  return schema.fields.some((f) => f.name === 'norm') && schema.fields.some((f) => f.name === 'bits');
}

/** The unit-length direction of `v` and its length; a zero vector stays zero. */
export function unitOf(v: Float32Array): { vector: Float32Array; norm: number } {
  const n = norm(v);
  if (n === 0) return { vector: new Float32Array(v.length), norm: 0 };
  const out = new Float32Array(v.length);
  for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return { vector: out, norm: n };
}

/** Table name for an embedder id: LanceDB names are file names, so keep [A-Za-z0-9_-] only. */
export function tableNameFor(embedderId: string): string {
  const clean = embedderId.replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 100);
  return `vectors_${clean || 'default'}`;
}

export interface VectorRow {
  memory_id: string;
  space_id: string;
  kind: string;
  status: string;
  vector: Float32Array;
  norm?: number;
  bits?: number[];
}

export function toRow(v: IndexedVector, unit = true): VectorRow {
  const row: VectorRow = { memory_id: v.memoryId, space_id: v.spaceId, kind: v.kind, status: v.status, vector: v.vector };
  if (!unit) return row;
  const u = unitOf(v.vector);
  return { ...row, vector: u.vector, norm: u.norm, bits: signBits(u.vector) };
}

/**
 * A string literal for LanceDB's SQL filters (DataFusion): single quotes doubled.
 * Ids are UUIDs in practice, but a filter is code, so anything that is not a
 * plain printable string is refused rather than escaped creatively.
 */
export function sqlString(value: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/.test(value)) throw new Error(`refusing an identifier with control characters or backslashes: ${JSON.stringify(value.slice(0, 40))}`);
  return `'${value.replace(/'/g, "''")}'`;
}

export function sqlIn(column: string, values: readonly string[]): string {
  return `${column} IN (${values.map(sqlString).join(', ')})`;
}
