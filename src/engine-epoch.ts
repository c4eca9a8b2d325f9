import { randomUUID } from 'node:crypto';
import type { Logger } from './ports/logger.js';
import type { VectorIndex } from './ports/vector-index.js';
import type { SqlClient } from './store/sql-client.js';
import { readIndexedVectors, type SqlOutbox } from './store/sql-outbox.js';

/**
 * Engines that notice loss (docs/engines.md). An engine outside PostgreSQL (LanceDB,
 * Qdrant) may be lost (its directory deleted, a volume not mounted) or older than the
 * store (restored from a backup): it then answers with holes, and a restatement makes
 * a duplicate. Each (re)build from PostgreSQL writes one epoch marker into the engine and
 * the same into `engram_meta`; at start a missing or different marker, or an engine whose
 * row count is off by more than the outbox rows not yet applied, is rebuilt from
 * PostgreSQL in the background while recall and recognition use the exact PostgreSQL
 * path (`SqlOutbox.rebuilding`).
 */
const BATCH = 1_000;

export type EngineVerdict = { ok: true } | { ok: false; reason: 'missing' | 'other-epoch' | 'older' | 'unmarked' };

const metaKey = (engine: string) => `engine_epoch:${engine}`;

/** Whether the engine holds what the store says it should. */
export async function checkEngine(db: SqlClient, index: VectorIndex): Promise<EngineVerdict> {
  const stored = (await db.query<{ value: string }>(`select value from engram_meta where key = $1`, [metaKey(index.name)])).rows[0]?.value ?? null;
  const marker = (await index.readEpoch?.()) ?? null;
  const vectors = Number((await db.query<{ n: number }>(`select count(*)::int as n from memory_vectors`)).rows[0].n);
  const pending = Number((await db.query<{ n: number }>(`select count(*)::int as n from vector_outbox where engine = $1`, [index.name])).rows[0].n);
  const held = index.count ? await index.count() : null;
  const countsAgree = held === null || Math.abs(held - vectors) <= pending;
  if (stored === null) {
    // Never marked (a store from before epochs, or a first start): adopt an engine that agrees.
    return vectors === 0 || countsAgree ? { ok: true } : { ok: false, reason: 'unmarked' };
  }
  if (index.readEpoch && marker === null) return { ok: false, reason: 'missing' };
  if (index.readEpoch && marker !== stored) return { ok: false, reason: 'other-epoch' };
  return countsAgree ? { ok: true } : { ok: false, reason: 'older' };
}

/** Writes a new epoch into the engine, then into PostgreSQL (a crash in between reads as 'other-epoch': rebuilt again). */
export async function markEngine(db: SqlClient, index: VectorIndex): Promise<void> {
  if (!index.writeEpoch) return;
  const epoch = randomUUID();
  await index.writeEpoch(epoch);
  await db.query(
    `insert into engram_meta (key, value) values ($1, $2) on conflict (key) do update set value = excluded.value`,
    [metaKey(index.name), epoch],
  );
}

/**
 * Rebuilds the engine from PostgreSQL: drops its table or collection, copies every vector
 * with its present status, marks the new epoch, then lets the outbox apply what was
 * written meanwhile (parked rows included). Searches use the exact PostgreSQL path until
 * it is done. Returns the number of vectors copied.
 */
export async function rebuildEngine(db: SqlClient, index: VectorIndex, outbox: SqlOutbox | null, dimensions: number, log: Logger): Promise<number> {
  if (!index.reset) throw new Error(`engine ${index.name} cannot be rebuilt`);
  const wasRunning = outbox?.started ?? false;
  if (outbox) outbox.rebuilding = true;
  try {
    await outbox?.stop();
    await index.reset();
    let n = 0;
    let after: string | null = null;
    for (;;) {
      const page = await readIndexedVectors(db, dimensions, { after, limit: BATCH });
      if (page.length === 0) break;
      await index.upsert(page);
      n += page.length;
      after = page[page.length - 1].memoryId;
    }
    await markEngine(db, index);
    if (outbox) outbox.rebuilding = false;
    // Rows queued meanwhile (or before), parked ones included, are replayed from the present state.
    const requeued = (await outbox?.retryParked()) ?? 0;
    if (requeued) log.info({ engine: index.name, rows: requeued }, 'parked outbox rows put back in line');
    await outbox?.drain().catch((e) => log.warn({ engine: index.name, cause: String(e) }, 'outbox drain after rebuild failed; will retry'));
    return n;
  } finally {
    if (outbox) {
      outbox.rebuilding = false;
      if (wasRunning) outbox.start();
    }
  }
}

/**
 * At start: checks the engine and, when it is lost or older, rebuilds it in the background
 * (with a log line and `onRebuild` for the metric). Returns the rebuild (`done`: tests and
 * shutdown wait for it), or null when the engine is the store's.
 */
export async function watchEngine(
  db: SqlClient, index: VectorIndex, outbox: SqlOutbox, dimensions: number, log: Logger,
  onRebuild?: (reason: string) => void,
): Promise<{ done: Promise<void> } | null> {
  const verdict = await checkEngine(db, index);
  if (verdict.ok) {
    if ((await index.readEpoch?.()) == null) await markEngine(db, index);
    return null;
  }
  log.warn({ engine: index.name, reason: verdict.reason },
    'vector engine lost or older than the store: rebuilding it from PostgreSQL in the background (recall uses PostgreSQL meanwhile)');
  onRebuild?.(verdict.reason);
  outbox.rebuilding = true;
  const started = Date.now();
  // Wrapped: awaiting the check must not wait for the rebuild.
  return {
    done: rebuildEngine(db, index, outbox, dimensions, log).then(
      (n) => log.info({ engine: index.name, vectors: n, ms: Date.now() - started }, 'vector engine rebuilt from PostgreSQL'),
      (e) => log.error({ engine: index.name, err: e }, 'vector engine rebuild failed; recall keeps using PostgreSQL; run engram reindex'),
    ),
  };
}
