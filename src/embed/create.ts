/**
 * The one function that picks an embedder from configuration (without the barrel's
 * re-exports, so a server that imports it loads no word-form rules before they are used).
 */
import type { Embedder } from '../ports/embedder.js';
import { BuiltinEmbedder, type BuiltinEmbedderOptions } from './builtin-embedder.js';
import { OpenAICompatibleEmbedder, type OpenAICompatibleConfig } from './http-embedder.js';

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
