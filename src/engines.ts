import { join } from 'node:path';
import { z } from 'zod';
import type { AppConfig } from './config.js';
import type { Embedder } from './ports/embedder.js';
import type { VectorIndex } from './ports/vector-index.js';
import { describeEngineError } from './store/outbox-errors.js';

/**
 * LanceDB compaction knobs. They belong with the rest of the configuration in
 * config.ts; until they move there they are read and validated here, once per
 * engine created.
 */
const LanceTuning = z.object({
  optimizeEveryWrites: z.coerce.number().int().min(0).default(100),
  optimizeEverySeconds: z.coerce.number().min(0).default(60),
  keepVersionsSeconds: z.coerce.number().min(0).default(600),
  annIndexAbove: z.coerce.number().int().min(0).default(100_000),
});

export function lanceTuning(env: NodeJS.ProcessEnv = process.env): z.infer<typeof LanceTuning> {
  const r = LanceTuning.safeParse({
    optimizeEveryWrites: env.ENGRAM_LANCEDB_OPTIMIZE_EVERY_WRITES || undefined,
    optimizeEverySeconds: env.ENGRAM_LANCEDB_OPTIMIZE_EVERY_SECONDS || undefined,
    keepVersionsSeconds: env.ENGRAM_LANCEDB_KEEP_VERSIONS_SECONDS || undefined,
    annIndexAbove: env.ENGRAM_LANCEDB_ANN_INDEX_ABOVE || undefined,
  });
  if (!r.success) throw new Error(`invalid LanceDB configuration: ${r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  return r.data;
}

/**
 * Where LanceDB keeps its files: ENGRAM_LANCEDB_DIR, else `<dataDir>/lancedb`;
 * null (a temporary directory, removed on close) when the data dir is ':memory:'.
 */
export function lancedbDirFor(config: AppConfig): string | null {
  if (config.lancedbDir) return config.lancedbDir;
  if (config.dataDir === ':memory:') return null;
  return join(config.dataDir, 'lancedb');
}

export type EngineName = AppConfig['engine'];

/** Engines fed through the outbox; loaded lazily so their drivers are only required when chosen. */
export async function createEngineIndex(
  config: AppConfig, embedder: Embedder, engine: EngineName = config.engine,
  hooks: { exclusive?: (job: string, fn: () => Promise<void>, opts: { wait: boolean }) => Promise<void> } = {},
): Promise<VectorIndex> {
  if (engine === 'lancedb') {
    const { LanceDbIndex } = await import('../adapters/lancedb/lancedb-index.js');
    const t = lanceTuning();
    return new LanceDbIndex({
      dir: lancedbDirFor(config), embedderId: embedder.id, dimensions: embedder.dimensions,
      compaction: { everyWrites: t.optimizeEveryWrites, everyMs: t.optimizeEverySeconds * 1000, keepVersionsMs: t.keepVersionsSeconds * 1000 },
      annIndexAbove: t.annIndexAbove,
      onWarning: (message, cause) => process.emitWarning(`${message}: ${describeEngineError(cause)}`),
      exclusive: hooks.exclusive,
      // Instances of one server may share the directory (docs/engines.md, "LanceDB").
      shared: Boolean(config.databaseUrl),
    });
  }
  if (engine === 'qdrant') {
    if (!config.qdrantUrl) throw new Error('ENGRAM_VECTOR_ENGINE=qdrant needs QDRANT_URL (for example http://127.0.0.1:6333)');
    const { QdrantIndex } = await import('../adapters/qdrant/qdrant-index.js');
    return new QdrantIndex({
      url: config.qdrantUrl, apiKey: config.qdrantApiKey || undefined, embedderId: embedder.id, dimensions: embedder.dimensions,
      metric: config.qdrantMetric,
      onWarning: (message) => process.emitWarning(message),
    });
  }
  throw new Error(`vector engine ${engine} lives in the system-of-record database: it is not created here`);
}
