import type { Embedder } from '../ports/embedder.js';

/**
 * An embedder whose model loads on its first use instead of at start (the server:
 * docs/operations.md#start). The service answers everything that needs no embedding
 * while the model is not in memory (USE-lite: ~150 MB and seconds of a core to load);
 * the first embedding waits for the load, and concurrent first callers share one load.
 * A failed load is retried by the next call (each caller sees the failure as the
 * embedder's error: remember keeps the memory with embeddingStatus MISSING).
 */
export class LazyEmbedder implements Embedder {
  /** Always true: readiness reports "loads on first use" rather than "not loaded". */
  readonly lazy = true;
  private loading: Promise<void> | null = null;
  private done = false;
  /** Loads started (a retry after a failure counts again): tests read it. */
  loads = 0;

  constructor(readonly inner: Embedder) {}

  get id(): string { return this.inner.id; }
  get dimensions(): number { return this.inner.dimensions; }
  get thresholds() { return this.inner.thresholds; }
  /** Whether the model is in memory. */
  get loaded(): boolean { return this.done; }

  /** Loads now (a warm-up); embed() would do it anyway. */
  init(): Promise<void> {
    if (this.done) return Promise.resolve();
    if (!this.loading) {
      this.loads++;
      const p = this.inner.init().then(
        () => { if (this.loading === p) this.done = true; },
        (e: unknown) => { if (this.loading === p) this.loading = null; throw e; },
      );
      this.loading = p;
    }
    return this.loading;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    if (!this.done) await this.init();
    return this.inner.embed(texts);
  }

  letGo(): void {
    this.inner.letGo?.();
  }

  async close(): Promise<void> {
    this.loading = null;
    this.done = false;
    await this.inner.close();
  }
}
