import { migrate } from '../../src/store/migrations.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { PgvectorIndex } from '../../adapters/pgvector/pgvector-index.js';
import { Seeder } from '../contract/harness.js';
import { pack, Slots } from '../../adapters/pgvector/mirror-slots.js';

/**
 * An in-memory PGlite store migrated for `dim`-d vectors, searched two ways: `mirrored`, through
 * the vector mirror (recognition's window from 1,000 rows, the default, so a space of 1,200 takes
 * the sign-bit first pass), and `sql`, the same store in SQL (mirror: false), the reference; no
 * HNSW index. `seed` writes memories and their vectors through the mirrored index.
 */
export async function openMirrorStore(dim: number): Promise<{ db: PgliteClient; mirrored: PgvectorIndex; sql: PgvectorIndex; seed: Seeder }> {
  const db = await PgliteClient.open(':memory:');
  await migrate(db, { dimensions: dim });
  const mirrored = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY });
  const sql = new PgvectorIndex(db, { embedder: 'test', annIndexAbove: Number.POSITIVE_INFINITY, mirror: false });
  return { db, mirrored, sql, seed: new Seeder(db, mirrored) };
}

/** Rows as the mirror's load reads them: varbit_send of the sign bits, vector_send of the vectors. */
export function slotsOf(vectors: Float32Array[]): Slots {
  const dim = vectors[0].length;
  const words = Math.ceil(dim / 32);
  const bits = new Uint8Array(vectors.length * (4 + words * 4));
  const vecs = new Uint8Array(vectors.length * (4 + 4 * dim));
  const bv = new DataView(bits.buffer);
  const vv = new DataView(vecs.buffer);
  vectors.forEach((v, r) => {
    const b = r * (4 + words * 4);
    bv.setUint32(b, dim);
    bits.set(new Uint8Array(pack(v).buffer), b + 4);
    const o = r * (4 + 4 * dim);
    vv.setUint16(o, dim);
    v.forEach((x, j) => vv.setFloat32(o + 4 + 4 * j, x));
  });
  const slots = new Slots();
  slots.putMany(vectors.map((_, i) => `m${i}`), bits, vecs);
  return slots;
}
