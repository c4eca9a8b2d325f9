/** Embedders and the one function that picks one from configuration. */
export { BuiltinEmbedder, BUILTIN_THRESHOLDS, type BuiltinEmbedderOptions } from './builtin-embedder.js';
export { OpenAICompatibleEmbedder, type OpenAICompatibleConfig } from './http-embedder.js';
export { SifEncoder, DEFAULT_SIF_OPTIONS, hashVector, type SifOptions } from './sif-encoder.js';
export { loadWordVectors, buildWordVectorCache, defaultCacheDir, type LoadReport } from './word-vector-cache.js';
export { createEmbedder, type EmbedderConfig } from './create.js';
