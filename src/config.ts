import { z } from 'zod';

const int = (min: number, dflt: number) => z.coerce.number().int().min(min).default(dflt);

/** Request limits: defaults, bounds and the setting of each are listed in docs/limits.md. */
export const LimitsSchema = z.object({
  /** HTTP request body, bytes (413 above). */
  bodyBytes: int(1024, 1_000_000),
  /** Tokens of one GraphQL document (GraphQL Armor max-tokens). */
  tokens: int(50, 2_000),
  /** Field nesting depth of one operation (GraphQL Armor max-depth). */
  depth: int(2, 10),
  /** Aliases in one operation (GraphQL Armor max-aliases). */
  aliases: int(0, 15),
  /** Static cost of one operation (GraphQL Armor cost-limit: objects 2, scalars 1, x1.5 per level, x `first` of a list). */
  cost: int(10, 50_000),
  /** Most list items one `first` may ask for (fields with a lower maximum state it). */
  first: int(1, 1_000),
  /** Characters of a quote (remember, correct). */
  quoteChars: int(100, 20_000),
  /** Characters of a recall query. */
  queryChars: int(10, 2_000),
  /** Characters of a message the chat records (and of an inference's basis). */
  messageChars: int(1_000, 100_000),
  /** Characters of any other string argument not bounded by its own rule (names, labels, ids, cursors). */
  stringChars: int(16, 1_000),
  /** Characters of a text the embedder reads; longer texts are embedded on their first part. */
  embedChars: int(100, 2_000),
  /** Token bucket per token: burst and refill per second. */
  rateBurst: int(1, 120),
  ratePerSecond: z.coerce.number().positive().default(20),
  /** Token bucket for requests without a (valid) token, per client address. */
  anonBurst: int(1, 20),
  anonPerSecond: z.coerce.number().positive().default(2),
  /** PostgreSQL statement_timeout, milliseconds (0: none). */
  statementTimeoutMs: int(0, 15_000),
  /** Seconds between re-checks of the token of an open websocket. */
  tokenRecheckSeconds: z.coerce.number().positive().default(5),
  /** Subscriptions one token holds open at once (graphql-ws and server-sent events together). */
  subscriptions: int(1, 32),
  /** Characters of message text one request may read (`Conversation.messages`, however many conversations). */
  readChars: int(100_000, 10_000_000),
});
export type Limits = z.infer<typeof LimitsSchema>;

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
  /** PGlite's buffer pool, a PostgreSQL size ("32MB"); default src/store/pglite-client.ts (docs/operations.md#memory). */
  pgliteSharedBuffers: z.string().regex(/^\d+\s*(kB|MB|GB)$/, 'a size such as 32MB').optional(),
  engine: z.enum(['pgvector', 'lancedb', 'qdrant']).default('pgvector'),
  lancedbDir: z.string().optional(),
  qdrantUrl: z.string().url().optional(),
  qdrantApiKey: z.string().optional(),
  /** The Qdrant collection's distance: cosine (default) or l2 (Euclid; docs/engines.md). */
  qdrantMetric: z.enum(['cosine', 'l2']).default('cosine'),
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
  /**
   * Megabytes of spaces' vectors kept in the process for searching (docs/engines.md,
   * "The vector mirror"; ~2.1 KB a 512-d vector); the least recently searched spaces are let go
   * past it and read again when next searched. 0 turns the mirror off (SQL searches).
   */
  vectorMirrorMb: z.coerce.number().int().min(0).default(256),
  /** Production mode (NODE_ENV=production or ENGRAM_PRODUCTION=true): docs/limits.md#production-mode. */
  production: z.coerce.boolean().default(false),
  /** Introspection and GraphiQL for every caller even in production mode (admin tokens always have them). */
  exposeSchema: z.coerce.boolean().default(false),
  /** Origins allowed by CORS (comma-separated); none: CORS off in production, any origin in development. */
  corsOrigins: z.array(z.string().min(1)).default([]),
  /** Every request limit, declared once (docs/limits.md). */
  limits: LimitsSchema.default({}),
});

export type AppConfig = z.infer<typeof ConfigSchema>;

/** The environment variable of each limit. */
export const LIMIT_ENV: Record<keyof Limits, string> = {
  bodyBytes: 'ENGRAM_MAX_BODY_BYTES',
  tokens: 'ENGRAM_MAX_TOKENS',
  depth: 'ENGRAM_MAX_DEPTH',
  aliases: 'ENGRAM_MAX_ALIASES',
  cost: 'ENGRAM_MAX_COST',
  first: 'ENGRAM_MAX_FIRST',
  quoteChars: 'ENGRAM_MAX_QUOTE_CHARS',
  queryChars: 'ENGRAM_MAX_QUERY_CHARS',
  messageChars: 'ENGRAM_MAX_MESSAGE_CHARS',
  stringChars: 'ENGRAM_MAX_STRING_CHARS',
  embedChars: 'ENGRAM_EMBED_CHARS',
  rateBurst: 'ENGRAM_RATE_BURST',
  ratePerSecond: 'ENGRAM_RATE_PER_SECOND',
  anonBurst: 'ENGRAM_ANON_RATE_BURST',
  anonPerSecond: 'ENGRAM_ANON_RATE_PER_SECOND',
  statementTimeoutMs: 'ENGRAM_STATEMENT_TIMEOUT_MS',
  tokenRecheckSeconds: 'ENGRAM_TOKEN_RECHECK_SECONDS',
  subscriptions: 'ENGRAM_MAX_SUBSCRIPTIONS',
  readChars: 'ENGRAM_MAX_READ_CHARS',
};

/** "true"/"1"/"yes" are true; anything else false (z.coerce.boolean would read "false" as true). */
function bool(v: string): boolean {
  return /^(1|true|yes|on)$/i.test(v.trim());
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env, overrides: Partial<AppConfig> = {}): AppConfig {
  const parsed = ConfigSchema.safeParse({
    port: env.PORT ?? env.ENGRAM_PORT,
    host: env.ENGRAM_HOST,
    databaseUrl: env.DATABASE_URL || undefined,
    databaseOwnerUrl: env.DATABASE_OWNER_URL || undefined,
    dataDir: env.ENGRAM_DATA_DIR,
    pgliteSharedBuffers: env.ENGRAM_PGLITE_SHARED_BUFFERS || undefined,
    engine: env.ENGRAM_VECTOR_ENGINE,
    lancedbDir: env.ENGRAM_LANCEDB_DIR,
    qdrantUrl: env.QDRANT_URL || undefined,
    qdrantApiKey: env.QDRANT_API_KEY,
    qdrantMetric: env.ENGRAM_QDRANT_METRIC || undefined,
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
    vectorMirrorMb: env.ENGRAM_VECTOR_MIRROR_MB || undefined,
    shutdownGraceMs: env.ENGRAM_SHUTDOWN_GRACE_MS || undefined,
    webDir: env.ENGRAM_WEB_DIR || undefined,
    production: env.ENGRAM_PRODUCTION ? bool(env.ENGRAM_PRODUCTION) : env.NODE_ENV === 'production',
    exposeSchema: env.ENGRAM_EXPOSE_SCHEMA ? bool(env.ENGRAM_EXPOSE_SCHEMA) : undefined,
    corsOrigins: env.ENGRAM_CORS_ORIGINS ? env.ENGRAM_CORS_ORIGINS.split(',').map((o) => o.trim()).filter(Boolean) : undefined,
    limits: Object.fromEntries(Object.entries(LIMIT_ENV).map(([k, name]) => [k, env[name] || undefined])),
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  });
  if (!parsed.success) {
    const msg = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`invalid configuration: ${msg}`);
  }
  return parsed.data;
}
