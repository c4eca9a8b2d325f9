/**
 * A stand-in embedder for runs that supply their own vectors. The Embedder port
 * lets a client hand over vectors; Engram still needs an embedder object for
 * the vectors' dimension, id and recognition thresholds. Texts the bench
 * registered (recall queries) map to their vectors, so `recall()` runs its
 * whole path; anything else goes to the fallback embedder, or fails like a
 * broken embedder would.
 */
import { EmbeddingError, type Embedder, type RecognitionThresholds } from '../src/ports/embedder.js';
import { BUILTIN_THRESHOLDS } from '../src/embed/builtin-embedder.js';

export class LookupEmbedder implements Embedder {
  readonly id: string;
  readonly thresholds: RecognitionThresholds;
  private readonly table = new Map<string, Float32Array>();

  constructor(readonly dimensions: number, private readonly fallback: Embedder | null = null) {
    this.id = fallback?.id ?? `bench-client-${dimensions}d@1`;
    this.thresholds = fallback ? { ...fallback.thresholds } : { ...BUILTIN_THRESHOLDS };
  }

  register(text: string, vector: Float32Array): void {
    this.table.set(text, vector);
  }

  async init(): Promise<void> {
    await this.fallback?.init();
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const missing = texts.filter((t) => !this.table.has(t));
    const extra = missing.length ? await this.viaFallback(missing) : [];
    let j = 0;
    return texts.map((t) => this.table.get(t) ?? extra[j++]);
  }

  private async viaFallback(texts: string[]): Promise<Float32Array[]> {
    if (!this.fallback) throw new EmbeddingError(`bench: no vector registered for ${JSON.stringify(texts[0])}`);
    return this.fallback.embed(texts);
  }

  /** The fallback's recent texts let go of (each engine's embedded remembers then embed afresh). */
  letGo(): void {
    this.fallback?.letGo?.();
  }

  async close(): Promise<void> {}
}
