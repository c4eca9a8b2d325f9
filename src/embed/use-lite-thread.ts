import { Worker } from 'node:worker_threads';
import { EmbeddingError } from '../ports/embedder.js';

/**
 * USE-lite in a worker thread (src/embed/use-lite-worker.mjs): forward passes never
 * run on the service's event loop, so a long text being embedded delays no other
 * request's parsing, SQL or answer. The thread is started on first use, kept only
 * while something is pending (it never holds a CLI process open), and restarted after
 * a crash: the passes in flight fail with EmbeddingError and the memory is kept with
 * embeddingStatus MISSING, as for any embedder failure.
 */
export class UseLiteThread {
  private worker: Worker | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private readonly inflight = new Map<number, { resolve(v: Float32Array[]): void; reject(e: unknown): void }>();

  /** Starts the thread and loads the model (a 0-text pass). */
  async init(): Promise<void> {
    await this.run([]);
  }

  run(texts: string[]): Promise<Float32Array[]> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise<Float32Array[]>((resolve, reject) => {
      this.inflight.set(id, { resolve, reject });
      worker.ref();
      worker.postMessage({ id, texts });
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.ready = null;
    if (w) await w.terminate();
    this.failAll(new EmbeddingError('use-lite: the embedder was closed'));
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(new URL('./use-lite-worker.mjs', import.meta.url));
    w.unref();
    w.on('message', (msg: { id: number; vectors?: Float32Array[]; error?: string }) => {
      const pending = this.inflight.get(msg.id);
      if (!pending) return;
      this.inflight.delete(msg.id);
      if (this.inflight.size === 0) w.unref();
      if (msg.error !== undefined) pending.reject(new EmbeddingError(`use-lite: embedding failed: ${msg.error}`));
      else pending.resolve(msg.vectors ?? []);
    });
    const lost = (why: string) => {
      if (this.worker === w) this.worker = null;
      this.failAll(new EmbeddingError(`use-lite: the embedding thread ${why}`));
    };
    w.on('error', (e) => lost(`failed: ${e.message}`));
    w.on('exit', (code) => lost(`exited (code ${code})`));
    this.worker = w;
    return w;
  }

  private failAll(e: EmbeddingError): void {
    for (const p of this.inflight.values()) p.reject(e);
    this.inflight.clear();
  }
}
