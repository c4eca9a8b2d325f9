import { migrate } from '../../src/store/migrations.js';
import { PgliteClient } from '../../src/store/pglite-client.js';
import { PgvectorIndex } from '../../adapters/pgvector/pgvector-index.js';
import { Seeder } from '../contract/harness.js';

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
