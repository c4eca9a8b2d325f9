/**
 * Coalescing batcher with a small LRU cache, in front of any batch encoder
 * (docs/limits.md#embedding). Concurrent `embed` calls are merged: while one forward
 * pass runs, every text asked for meanwhile waits for the next pass, which takes up to
 * `batchSize` distinct texts at once (USE-lite: ~11 ms a sentence batched vs ~27 ms
 * alone). Recently embedded texts are answered from the cache without a pass.
 */
export type EncodeBatch = (texts: string[]) => Promise<Float32Array[]>;

interface Waiter { resolve(v: Float32Array): void; reject(e: unknown): void }

export class EmbedBatcher {
  private readonly cache = new Map<string, Float32Array>();
  private readonly pending = new Map<string, Waiter[]>();
  private running = false;
  /** Bumped by `letGo`: a pass begun before it answers its callers but caches nothing. */
  private generation = 0;
  /** Forward passes made (tests read it). */
  passes = 0;

  constructor(private readonly encode: EncodeBatch, private readonly batchSize: number, private readonly cacheSize: number) {}

  embed(texts: string[]): Promise<Float32Array[]> {
    return Promise.all(texts.map((t) => this.one(t)));
  }

  private one(text: string): Promise<Float32Array> {
    const hit = this.cache.get(text);
    if (hit) {
      // Refresh its place: the map's insertion order is the eviction order.
      this.cache.delete(text);
      this.cache.set(text, hit);
      return Promise.resolve(hit);
    }
    return new Promise((resolve, reject) => {
      const waiting = this.pending.get(text);
      if (waiting) waiting.push({ resolve, reject });
      else this.pending.set(text, [{ resolve, reject }]);
      this.pump();
    });
  }

  private pump(): void {
    if (this.running || this.pending.size === 0) return;
    this.running = true;
    const batch: Array<[string, Waiter[]]> = [];
    for (const entry of this.pending) {
      batch.push(entry);
      if (batch.length >= this.batchSize) break;
    }
    for (const [text] of batch) this.pending.delete(text);
    this.passes++;
    const generation = this.generation;
    this.encode(batch.map(([t]) => t)).then(
      (vectors) => {
        batch.forEach(([text, waiters], i) => {
          const v = vectors[i]!;
          // (a forget came while this pass ran: its texts may be the forgotten words)
          if (generation === this.generation) this.remember(text, v);
          for (const w of waiters) w.resolve(v);
        });
      },
      (e: unknown) => {
        for (const [, waiters] of batch) for (const w of waiters) w.reject(e);
      },
    ).finally(() => {
      this.running = false;
      this.pump();
    });
  }

  /**
   * Forgets every text answered lately (a forget for good: its words leave the process), and
   * keeps the texts of a pass under way out of the cache when it ends.
   */
  letGo(): void {
    this.cache.clear();
    this.generation++;
  }

  private remember(text: string, v: Float32Array): void {
    if (this.cacheSize <= 0) return;
    this.cache.set(text, v);
    if (this.cache.size > this.cacheSize) this.cache.delete(this.cache.keys().next().value!);
  }
}
