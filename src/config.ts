import { z } from 'zod';

/** Configuration from the environment, validated once, with safe defaults. */
export const ConfigSchema = z.object({
  port: z.coerce.number().int().min(0).max(65535).default(4000),
  host: z.string().default('127.0.0.1'),
  /** A PostgreSQL server; when absent the embedded PGlite in `dataDir` is used. */
  databaseUrl: z.string().url().optional(),
  /**
   * The tables' owner on a PostgreSQL server: migrations, grants to the service role of
   * DATABASE_URL, and erasure's VACUUM FULL run as it (docs/append-only.md). Defaults to
   * DATABASE_URL (one role: append-only then rests on the triggers alone).
   */
  databaseOwnerUrl: z.string().url().optional(),
  /** PGlite data directory, or ':memory:'. */
  dataDir: z.string().default('.engram/data'),
  engine: z.enum(['pgvector', 'lancedb', 'qdrant']).default('pgvector'),
  lancedbDir: z.string().optional(),
  qdrantUrl: z.string().url().optional(),
  qdrantApiKey: z.string().optional(),
  embedder: z.enum(['use-lite', 'builtin', 'openai']).default('use-lite'),
  openaiBaseUrl: z.string().url().optional(),
  openaiModel: z.string().optional(),
  openaiApiKey: z.string().optional(),
  openaiDimensions: z.coerce.number().int().positive().optional(),
  logLevel: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  candidateK: z.coerce.number().int().min(1).max(100).default(10),
  /** Overrides of the embedder's calibrated thresholds (calibration experiments, custom embedders). */
  thresholds: z.object({
    close: z.coerce.number().min(-1).max(1).optional(),
    related: z.coerce.number().min(-1).max(1).optional(),
    topic: z.coerce.number().min(-1).max(1).optional(),
    recallFloor: z.coerce.number().min(-1).max(1).optional(),
  }).default({}),
  /** Print a first admin token when none exists (embedded default's first start). */
  bootstrapAdmin: z.coerce.boolean().default(true),
  /** Run a consolidation pass over every space every this many seconds; 0 (default) = off. */
  consolidateEvery: z.coerce.number().int().min(0).default(0),
  /**
   * Outbox engines (LanceDB, Qdrant): a row the engine refuses this many times is
   * parked (kept, skipped by the drain, still recalled) until `engram outbox retry`.
   */
  outboxMaxAttempts: z.coerce.number().int().min(1).default(10),
  /** Graceful shutdown: how long in-flight requests may run after SIGTERM before connections are cut. */
  shutdownGraceMs: z.coerce.number().int().min(0).default(10_000),
  /** The built web app served at `/` (default: web/dist of this checkout). */
  webDir: z.string().optional(),
  /** Outbox engines: how often the background loop drains (one instance at a time drains). */
  outboxIntervalMs: z.coerce.number().int().min(10).default(1_000),
  /**
   * pgvector: build the HNSW index once the vectors outnumber this ('off': never by
   * itself; `engram reindex --engine pgvector` builds it). Default: 20000 on a
   * PostgreSQL server (built concurrently, writes go on), off on PGlite, where a
   * build runs on the service's only thread and would stall it for minutes.
   */
  pgvectorAnnIndexAbove: z.union([z.literal('off'), z.coerce.number().int().min(0)]).optional(),
});

export type AppConfig = z.infer<typeof ConfigSchema>;

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const parsed = ConfigSchema.safeParse({
    port: env.PORT ?? env.ENGRAM_PORT,
    host: env.ENGRAM_HOST,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseOwnerUrl: env.DATABASE_OWNER_URL || undefined,
    dataDir: env.ENGRAM_DATA_DIR,
    engine: env.ENGRAM_VECTOR_ENGINE,
    lancedbDir: env.ENGRAM_LANCEDB_DIR,
    qdrantUrl: env.QDRANT_URL || undefined,
    qdrantApiKey: env.QDRANT_API_KEY,
    embedder: env.ENGRAM_EMBEDDER,
    openaiBaseUrl: env.ENGRAM_OPENAI_BASE_URL,
    openaiModel: env.ENGRAM_OPENAI_MODEL,
    openaiApiKey: env.ENGRAM_OPENAI_API_KEY,
    openaiDimensions: env.ENGRAM_OPENAI_DIMENSIONS,
    logLevel: env.LOG_LEVEL,
    candidateK: env.ENGRAM_CANDIDATE_K,
    thresholds: {
      close: env.ENGRAM_THRESHOLD_CLOSE || undefined,
      related: env.ENGRAM_THRESHOLD_RELATED || undefined,
      topic: env.ENGRAM_THRESHOLD_TOPIC || undefined,
      recallFloor: env.ENGRAM_RECALL_FLOOR || undefined,
    },
    consolidateEvery: env.ENGRAM_CONSOLIDATE_EVERY,
    outboxMaxAttempts: env.ENGRAM_OUTBOX_MAX_ATTEMPTS || undefined,
    outboxIntervalMs: env.ENGRAM_OUTBOX_INTERVAL_MS || undefined,
    pgvectorAnnIndexAbove: env.ENGRAM_PGVECTOR_ANN_INDEX_ABOVE || undefined,
    shutdownGraceMs: env.ENGRAM_SHUTDOWN_GRACE_MS || undefined,
    webDir: env.ENGRAM_WEB_DIR || undefined,
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  });
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${msg}`);
  }
  return parsed.data;
}
