import { ensureLexicon, registerLexiconLoader } from './core/lexicon.js';
import { letGoOfReadings } from './core/readings.js';
import { loadWordNet } from './lexicon/wordnet.js';
import pino from 'pino';
import type { AppConfig } from './config.js';
import type { Embedder } from './ports/embedder.js';
import type { EventBus } from './ports/event-bus.js';
import type { VectorIndex } from './ports/vector-index.js';
import type { Logger } from './ports/logger.js';
import { systemClock, type Clock } from './ports/clock.js';
import type { MemoryDeps } from './memory/deps.js';
import type { PgClient } from './store/pg-client.js';
import { PgliteClient } from './store/pglite-client.js';
import type { SqlClient } from './store/sql-client.js';
import { SqlStore } from './store/sql-store.js';
import { grantServiceRole, migrate } from './store/migrations.js';
import { createEmbedder } from './embed/create.js';
import { UseLiteEmbedder } from './embed/use-lite-embedder.js';
import { LazyEmbedder } from './embed/lazy-embedder.js';
import { EXACT_SCAN_BELOW, PgvectorIndex } from '../adapters/pgvector/pgvector-index.js';
import { createEngineIndex } from './engines.js';
import { SqlOutbox } from './store/sql-outbox.js';
import { tidyTables } from './store/housekeeping.js';
import { watchEngine } from './engine-epoch.js';
import { systemActor } from './memory/deps.js';
import { JobRunner } from './ops/jobs.js';
import { MeteredEmbedder, type EngramMetrics } from './ops/metrics.js';

export interface Engram {
  deps: MemoryDeps;
  db: SqlClient;
  store: SqlStore;
  /** The background rebuild of an outside engine found lost or older at start (src/engine-epoch.ts); null when none. */
  rebuild?: Promise<void> | null;
  /** Background work once across instances (src/ops/jobs.ts). */
  jobs?: JobRunner;
  close(): Promise<void>;
}

export interface ContainerOptions {
  bus?: EventBus;
  clock?: Clock;
  logger?: Logger;
  /** Use this embedder instead of the configured one (shared across instances in tests). */
  embedder?: Embedder;
  /** Use this SQL client instead of opening one (the caller closes it). */
  db?: SqlClient;
  /**
   * The store, being opened already (the server starts opening PGlite while its modules load):
   * used instead of opening one, and closed with the rest.
   */
  opening?: Promise<SqlClient>;
  /** Report the embedder's latency and failures here (the server's /metrics; src/ops/metrics.ts). */
  metrics?: EngramMetrics;
  /** Who opens an embedded store ('server' or the CLI command): named in its lock (docs/ownership.md). */
  owner?: string;
  /**
   * Background work (outbox drain, consolidation schedule, statistics, engine rebuilds):
   * on for the server, off for one-shot CLI commands (`outbox status` only reads).
   */
  background?: boolean;
  /**
   * Load the embedder's model and WordNet on first use instead of at start (the server:
   * it answers as soon as the store is open and migrated; the first remember waits for
   * both, docs/operations.md#start). Otherwise the model loads while the database opens
   * and migrates, and both are awaited or under way before this returns.
   */
  lazyLoad?: boolean;
}

export function embedderFor(config: AppConfig): Embedder {
  if (config.embedder === 'use-lite') return new UseLiteEmbedder({ maxChars: config.limits.embedChars });
  if (config.embedder === 'openai') {
    return createEmbedder({
      kind: 'openai', baseUrl: config.openaiBaseUrl!, model: config.openaiModel!, apiKey: config.openaiApiKey,
      dimensions: config.openaiDimensions!,
    } as never);
  }
  return createEmbedder({ kind: 'builtin' } as never);
}

/** `dimensions`: the embedder's, which the store will be migrated for (a new embedded store may start from a template migrated for it). */
export async function openDatabase(config: AppConfig, owner = 'server', dimensions?: number): Promise<SqlClient> {
  return config.databaseUrl
    ? new (await pgClient())(config.databaseUrl, 10, { statementTimeoutMs: config.limits.statementTimeoutMs })
    : PgliteClient.open(config.dataDir, { owner, dimensions, sharedBuffers: config.pgliteSharedBuffers });
}

/** The PostgreSQL server's client, loaded when one is configured (the embedded default never needs `pg`). */
async function pgClient(): Promise<typeof PgClient> {
  return (await import('./store/pg-client.js')).PgClient;
}

/**
 * Wires the system of record, the vector engine and the embedder into the
 * use cases' dependencies. Used by the server, the CLI, evaluations and tests.
 */
export async function createEngram(config: AppConfig, opts: ContainerOptions = {}): Promise<Engram> {
  const log: Logger = opts.logger ?? (pino({ level: config.logLevel }) as unknown as Logger);
  const lazy = opts.lazyLoad === true;
  // Constructing the embedder loads nothing; its dimension says what the store is migrated for.
  const picked = opts.embedder ?? embedderFor(config);
  // The store first: a data directory owned by another process is refused before the embedder loads.
  const db = opts.db ?? (await (opts.opening ?? openDatabase(config, opts.owner, picked.dimensions)));
  // Lazily: the model (USE-lite: ~150 MB, seconds of a core) loads at the first embedding.
  const chosen = lazy ? new LazyEmbedder(picked) : picked;
  const embedder = opts.metrics ? new MeteredEmbedder(chosen, opts.metrics) : chosen;
  let owner: SqlClient | null = null;
  // Otherwise the model loads while the database migrates (the dimension is known before it loads).
  const warming = lazy ? Promise.resolve() : embedder.init();
  // WordNet (opposites, synonyms: src/core/lexicon.ts): remember awaits it before deciding. Loaded
  // alongside, or lazily by the first remember (parsing it holds the event loop ~0.5 s, ~50 MB).
  registerLexiconLoader(() => loadWordNet());
  if (!lazy) ensureLexicon().catch((e: unknown) => log.warn({ cause: String(e) }, 'WordNet lexicon failed to load: retried on first use'));
  warming.catch(() => { /* awaited below */ });
  try {
    owner = !opts.db && config.databaseUrl && config.databaseOwnerUrl && config.databaseOwnerUrl !== config.databaseUrl
      ? new (await pgClient())(config.databaseOwnerUrl, 2) : null;
    await migrate(owner ?? db, { dimensions: embedder.dimensions });
    if (owner) await grantServiceRole(owner, db);
    await warming;
  } catch (e) {
    await owner?.close();
    if (!opts.db) await db.close();
    throw e;
  }
  const store = new SqlStore(db, owner ?? db, log);
  const jobs = new JobRunner(db, log, opts.metrics);
  let index: VectorIndex;
  let outbox: SqlOutbox | null = null;
  if (config.engine === 'pgvector') {
    const embedded = db.driver === 'pglite'; // PGlite, or a wrapper of it (the quick bench's profiler)
    const above = config.pgvectorAnnIndexAbove ?? (embedded ? 'off' : EXACT_SCAN_BELOW);
    index = new PgvectorIndex(db, {
      embedder: embedder.id, annIndexAbove: above === 'off' ? Number.POSITIVE_INFINITY : above, concurrentBuild: !embedded,
      mirror: config.vectorMirrorMb > 0, mirrorMaxBytes: config.vectorMirrorMb * 1024 * 1024,
    });
  } else {
    // LanceDB's compaction and erasure: one instance at a time on a shared directory.
    index = await createEngineIndex(config, embedder, config.engine, {
      exclusive: async (job, fn, opts) => { await jobs.exclusive(job, fn, opts); },
    });
    const name = index.name;
    outbox = new SqlOutbox(db, index, log, {
      dimensions: embedder.dimensions, maxAttempts: config.outboxMaxAttempts, intervalMs: config.outboxIntervalMs,
      exclusive: (fn, wait) => jobs.exclusive(`outbox:${name}`, fn, { wait }),
    });
  }
  await index.init();
  const background = opts.background ?? true;
  // On a server, every instance's erasures reach what this process holds (src/store/pg-erasures.ts).
  const erasures = background && db.driver === 'pg' ? await listenForErasures(db as PgClient, store, index, embedder, log) : null;
  const deps: MemoryDeps = {
    store, index, embedder, clock: opts.clock ?? systemClock, bus: opts.bus ?? { publish: () => {} }, log,
    thresholds: { ...embedder.thresholds, ...Object.fromEntries(Object.entries(config.thresholds).filter(([, v]) => v !== undefined)) }, outbox, candidateK: config.candidateK,
  };
  // An outside engine lost or older than the store is rebuilt from PostgreSQL in the background.
  const rebuilds = opts.metrics?.counter('engram_engine_rebuilds_total',
    'Outside vector engines found lost or older than the store at start and rebuilt from PostgreSQL', ['engine', 'reason']);
  const rebuild = background && outbox
    ? ((await watchEngine(db, index, outbox, embedder.dimensions, log, (reason) => rebuilds?.inc({ engine: index.name, reason })))?.done ?? null)
    : null;
  if (background) outbox?.start();
  // An erasure owed when the process stopped (a forget answered, the rewrite not done): run now, in the background.
  if (background) store.resumeOwedErasure().catch((e: unknown) => log.warn({ cause: String(e) }, 'erasure: the owed one could not run now'));
  const consolidation = jobs.every('consolidate', background ? config.consolidateEvery * 1000 : 0, () => consolidateAll(deps));
  const statistics = background && db instanceof PgliteClient ? keepStatistics(db, log, jobs) : { stop: async () => {} };
  // The large spaces read into the vector mirror, then their postings into the store, shortly
  // after start, in the background (chunks that let requests through), so a restart's first
  // remember or recall in one finds them held.
  const stopWarming = new AbortController();
  const stopped = () => stopWarming.signal.aborted;
  let warmed: Promise<unknown> = Promise.resolve();
  const warmUp = background
    ? setTimeout(() => {
      warmed = (async () => {
        if (index instanceof PgvectorIndex && index.mirrorBytes !== null) {
          await index.warmMirror(stopWarming.signal).catch((e: unknown) => {
            if (!stopped()) log.warn({ err: e }, 'vector mirror: warm-up failed (spaces are read when first searched)');
          });
        }
        if (!stopped()) {
          await store.warmPostings(stopped).catch((e: unknown) => {
            if (!stopped()) log.warn({ err: e }, 'postings: warm-up failed (spaces are read when first searched)');
          });
        }
      })();
    }, WARM_AFTER_MS)
    : null;
  warmUp?.unref();
  return {
    deps, db, store, rebuild, jobs,
    async close() {
      if (warmUp) clearTimeout(warmUp);
      stopWarming.abort();
      await erasures?.stop();
      await warmed;
      await rebuild;
      consolidation.stop();
      await statistics.stop();
      await jobs.stop();
      await outbox?.stop();
      // the recall counters issued after their answers, before the connection goes
      await store.settled();
      await store.stopErasures();
      await index.close();
      if (!opts.db) await db.close();
      await owner?.close();
      if (!opts.embedder) await embedder.close();
    },
  };
}

/**
 * Listens for erasures made by any instance on the server (migration 23) and lets go of what this
 * process holds of their words: the postings BM25 scores from (held from then on: without the
 * listener they are not), the vector mirror, the embedder's recent texts. A listener that cannot
 * connect leaves the postings to the database's statement (logged; the service still starts).
 */
async function listenForErasures(db: PgClient, store: SqlStore, index: VectorIndex, embedder: Embedder, log: Logger): Promise<{ stop(): Promise<void> } | null> {
  const { PgErasureListener } = await import('./store/pg-erasures.js');
  const listener = new PgErasureListener(db.connectionString, (spaceId, ids) => {
    store.letGoOf(spaceId);
    index.letGo?.(spaceId, ids);
    embedder.letGo?.();
    letGoOfReadings();
  }, log);
  try {
    await listener.start();
  } catch (e) {
    log.warn({ err: e }, 'erasure listener could not connect: postings are not held in this process');
    return null;
  }
  store.holdPostings();
  return listener;
}

/** How long after start the warm-up (vector mirror, postings) begins (the first requests of a warm start go first). */
const WARM_AFTER_MS = 2_000;

/**
 * PGlite runs no autovacuum: its housekeeping (src/store/housekeeping.ts) vacuums and analyses
 * the tables autovacuum would, checked every five minutes, one statement per table. Shortly
 * after start (`checkAfterMs`, with the warm-up), a store that holds memories
 * but was never analysed (a fresh import) is analysed; otherwise the first check waits
 * `startDelayMs`. PGlite runs statements one at a time on the service's only thread, so the
 * check at once would hold back the start's own statements and its first requests (the check
 * alone took ~250 ms of a 2.6 s warm start on a slow machine: docs/bench-rounds.md, "Fifteenth round").
 */
function keepStatistics(db: SqlClient, log: Logger, jobs: JobRunner, everyMs = 5 * 60_000, startDelayMs = 60_000, checkAfterMs = WARM_AFTER_MS): { stop(): Promise<void> } {
  let stopped = false;
  let timer: NodeJS.Timeout | null = null;
  /** The check, or a tidy it started, while it runs: `stop` waits for it (the store closes next). */
  let running: Promise<void> = Promise.resolve();
  const tidy = () => (stopped ? Promise.resolve() : tidyTables(db).then(() => undefined, (e: unknown) => log.warn({ err: e }, 'housekeeping (vacuum, analyze) failed')));
  const later = (fn: () => Promise<void>, ms: number) => {
    timer = setTimeout(() => { running = fn(); }, ms);
    timer.unref();
  };
  // An empty store has nothing to plan (and ANALYZE of empty tables leaves pg_statistic empty,
  // so without the second test every start of a new store would analyze at once: ~1 s held).
  const check = () => db.query<{ done: boolean; empty: boolean }>(
    `select exists (select 1 from pg_statistic s join pg_class c on c.oid = s.starelid where c.relname = 'memory_state') as done,
            not exists (select 1 from memory_state) as empty`,
  ).then(async (r) => {
    if (stopped) return;
    if (!r.rows[0]?.done && !r.rows[0]?.empty) return db.query('analyze').then(tidy);
    later(tidy, startDelayMs);
  }).catch((e: unknown) => { if (!stopped) log.warn({ err: e }, 'analyze failed'); });
  later(check, checkAfterMs);
  const every = jobs.every('housekeeping', everyMs, async () => { await tidyTables(db); });
  return {
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      every.stop();
      await running;
    },
  };
}

/**
 * A consolidation pass over every space (ENGRAM_CONSOLIDATE_EVERY), run by one instance per
 * due time; a space that fails is logged and the others go on.
 */
async function consolidateAll(deps: MemoryDeps): Promise<void> {
  // The use case (and the rules it reads) loads at the first pass, not with the server.
  const { consolidate } = await import('./memory/consolidate.js');
  for (const s of await deps.store.listSpaces()) {
    try {
      await consolidate(deps, systemActor, s.id, false);
    } catch (err) {
      deps.log.error({ err, spaceId: s.id }, 'scheduled consolidation failed');
    }
  }
}
