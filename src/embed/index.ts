/** Embedders and the one function that picks one from configuration. */
import type { Embedder } from '../ports/embedder.js';
import { BuiltinEmbedder, type BuiltinEmbedderOptions } from './builtin-embedder.js';
import { OpenAICompatibleEmbedder, type OpenAICompatibleConfig } from './http-embedder.js';

export { BuiltinEmbedder, BUILTIN_THRESHOLDS, type BuiltinEmbedderOptions } from './builtin-embedder.js';
export { OpenAICompatibleEmbedder, type OpenAICompatibleConfig } from './http-embedder.js';
export { SifEncoder, DEFAULT_SIF_OPTIONS, hashVector, type SifOptions } from './sif-encoder.js';
export { loadWordVectors, buildWordVectorCache, defaultCacheDir, type LoadReport } from './word-vector-cache.js';

/** Which embedder to use: the offline built-in one, or an OpenAI-compatible endpoint. */
export type EmbedderConfig =
  | ({ kind: 'builtin' } & BuiltinEmbedderOptions)
  | ({ kind: 'openai' } & OpenAICompatibleConfig);

/** Builds the configured embedder; does no I/O (call init()). */
export function createEmbedder(config: EmbedderConfig): Embedder {
  switch (config.kind) {
    case 'builtin': {
      const { kind: _kind, ...options } = config;
      return new BuiltinEmbedder(options);
    }
    case 'openai': {
      const { kind: _kind, ...options } = config;
      return new OpenAICompatibleEmbedder(options);
    }
    default: {
      const never: never = config;
      throw new Error(`unknown embedder kind: ${JSON.stringify(never)}`);
    }
  }
}
