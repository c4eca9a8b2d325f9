import type { AppConfig } from '../config.js';
import type { Engram } from '../container.js';
import { createEngineIndex, type EngineName } from '../engines.js';
import type { VectorIndex } from '../ports/vector-index.js';
import { EXACT_SCAN_BELOW, HNSW_INDEX, PgvectorIndex } from '../../adapters/pgvector/pgvector-index.js';
import { readIndexedVectors, SqlOutbox } from '../store/sql-outbox.js';
import { markEngine } from '../engine-epoch.js';

const ENGINES: EngineName[] = ['pgvector', 'lancedb', 'qdrant'];
const BATCH = 1_000;

/** Engines outside PostgreSQL can drop and recreate their table or collection. */
interface Resettable {
  reset(): Promise<void>;
}

function isResettable(x: VectorIndex): x is VectorIndex & Resettable {
  return typeof (x as Partial<Resettable>).reset === 'function';
}

/**
 * Rebuilds an engine's index from PostgreSQL, the system of record: drops and
 * recreates the engine's table or collection, then upserts every vector of
 * memory_vectors with its present status from memory_state, in batches.
 * The engine may differ from the configured one (moving to another engine).
 * For pgvector the vectors already are in PostgreSQL: its HNSW index is rebuilt.
 * Run it with the server stopped: a running server keeps writing to the old index.
 * Returns the number of vectors indexed.
 */
export async function reindex(config: AppConfig, engram: Engram, engineName: string): Promise<number> {
  if (!ENGINES.includes(engineName as EngineName)) throw new Error(`unknown engine ${engineName} (one of ${ENGINES.join(', ')})`);
  const engine = engineName as EngineName;
  const { db, deps } = engram;
  if (engine === 'pgvector') {
    // The HNSW index: rebuilt if it exists; built if the table has outgrown exact scans
    // (on PGlite it is never built by the service itself: this is how it gets one).
    const n = Number((await db.query<{ n: number }>(`select count(*)::int as n from memory_vectors`)).rows[0].n);
    const index = deps.index instanceof PgvectorIndex ? deps.index : new PgvectorIndex(db, { embedder: deps.embedder.id });
    if ((await index.annIndexState()) !== 'none') await db.query(`reindex index ${HNSW_INDEX}`);
    else if (index === deps.index && n > EXACT_SCAN_BELOW) await index.ensureAnnIndex(true);
    return n;
  }

  const configured = engine === config.engine;
  // The configured engine is already open (its outbox feeds it): rebuild through that same handle.
  const index = configured ? deps.index : await createEngineIndex(config, deps.embedder, engine);
  const outbox = configured && deps.outbox instanceof SqlOutbox ? deps.outbox : null;
  try {
    if (!configured) await index.init();
    if (!isResettable(index)) throw new Error(`engine ${engine} cannot be rebuilt`);
    await outbox?.stop();
    await index.reset();
    let n = 0;
    let after: string | null = null;
    for (;;) {
      const page = await readIndexedVectors(db, deps.embedder.dimensions, { after, limit: BATCH });
      if (page.length === 0) break;
      await index.upsert(page);
      n += page.length;
      after = page[page.length - 1].memoryId;
    }
    // The engine is the store's again (src/engine-epoch.ts): the next start does not rebuild it.
    await markEngine(db, index);
    // Rows queued meanwhile (or before), parked ones included, are replayed from the present state: harmless and complete.
    const requeued = (await outbox?.retryParked()) ?? 0;
    if (requeued) deps.log.info({ engine, rows: requeued }, 'parked outbox rows put back in line');
    await outbox?.drain();
    deps.log.info({ engine, vectors: n }, 'engine reindexed from PostgreSQL');
    return n;
  } finally {
    if (!configured) await index.close();
  }
}
