import type { AppConfig } from './config.js';
import type { Embedder } from './ports/embedder.js';
import type { VectorIndex } from './ports/vector-index.js';

/** Engines fed through the outbox; loaded lazily so their drivers are only required when chosen. */
export async function createEngineIndex(config: AppConfig, embedder: Embedder): Promise<VectorIndex> {
  throw new Error(`vector engine ${config.engine} is not available in this build (embedder ${embedder.id})`);
}
