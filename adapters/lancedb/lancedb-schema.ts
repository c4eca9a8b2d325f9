import { Field, FixedSizeList, Float32, Schema, Utf8 } from 'apache-arrow';
import type { IndexedVector } from '../../src/ports/vector-index.js';

/**
 * The LanceDB table layout: one table per embedder (vectors of different
 * embedders are never comparable), one row per memory, the filter columns
 * next to the vector so prefilters never leave the table.
 */
export function vectorSchema(dimensions: number): Schema {
  return new Schema([
    new Field('memory_id', new Utf8(), false),
    new Field('space_id', new Utf8(), false),
    new Field('kind', new Utf8(), false),
    new Field('status', new Utf8(), false),
    new Field('vector', new FixedSizeList(dimensions, new Field('item', new Float32(), true)), false),
  ]);
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
}

export function toRow(v: IndexedVector): VectorRow {
  return { memory_id: v.memoryId, space_id: v.spaceId, kind: v.kind, status: v.status, vector: v.vector };
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
