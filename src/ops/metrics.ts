import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Plugin } from 'graphql-yoga';
import type { Embedder } from '../ports/embedder.js';
import { graphqlPrometheus } from './graphql-metrics.js';

/** Every series this service exports starts with this (docs/operations.md lists them). */
export const METRIC_PREFIX = 'engram_';

type Labels<L extends string> = Partial<Record<L, string | number>>;

/**
 * The service's Prometheus registry (prom-client), one per app: tests run many apps in one
 * process. Domain series live here; the GraphQL series come from
 * @graphql-yoga/plugin-prometheus on the same registry (`graphqlPlugin`). Other modules add
 * theirs with `counter` / `gauge` / `histogram` (get-or-create by name, `engram_` enforced).
 */
export class EngramMetrics {
  readonly registry = new Registry();
  readonly rememberOutcomes: Counter<'outcome' | 'tier'>;
  readonly recallSeconds: Histogram<'operation'>;
  readonly embedSeconds: Histogram<'embedder'>;
  readonly embedFailures: Counter<'embedder'>;
  readonly jobRuns: Counter<'job' | 'result'>;
  readonly refusals: Counter<'code'>;
  private readonly sources: (() => Promise<void>)[] = [];

  constructor(opts: { processMetrics?: boolean } = {}) {
    if (opts.processMetrics) collectDefaultMetrics({ register: this.registry, prefix: METRIC_PREFIX });
    this.rememberOutcomes = this.counter('engram_remember_outcomes_total',
      'remember calls by outcome (CREATED, REINFORCED, CORRECTED) and recognition tier (REINFORCED only; "none" otherwise)', ['outcome', 'tier']);
    this.recallSeconds = this.histogram('engram_recall_duration_seconds', 'recall latency (recall, recallSpace)', ['operation'],
      [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]);
    this.embedSeconds = this.histogram('engram_embedder_duration_seconds', 'time to embed one batch of texts', ['embedder'],
      [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5]);
    this.embedFailures = this.counter('engram_embedder_failures_total', 'embedder calls that threw', ['embedder']);
    this.refusals = this.counter('engram_refused_total',
      'requests and operations answered without running, by code: RATE_LIMITED (HTTP 429, or a socket operation refused), '
      + 'UNAVAILABLE (HTTP 503 at the door, a typed Unavailable payload or an UNAVAILABLE error: the database did not answer), PAYLOAD_TOO_LARGE (HTTP 413)', ['code']);
    this.jobRuns = this.counter('engram_job_runs_total',
      'background jobs run by this instance (result: ran, skipped = another instance holds the job, failed)', ['job', 'result']);
  }

  counter<L extends string>(name: string, help: string, labelNames: L[] = []): Counter<L> {
    return (this.existing(name) as Counter<L>) ?? new Counter({ name: checked(name), help, labelNames, registers: [this.registry] });
  }

  gauge<L extends string>(name: string, help: string, labelNames: L[] = [], collect?: (g: Gauge<L>) => Promise<void> | void): Gauge<L> {
    const existing = this.existing(name) as Gauge<L> | undefined;
    if (existing) return existing;
    return new Gauge<L>({
      name: checked(name), help, labelNames, registers: [this.registry],
      ...(collect ? { async collect(this: Gauge<L>) { await collect(this); } } : {}),
    });
  }

  histogram<L extends string>(name: string, help: string, labelNames: L[] = [], buckets?: number[]): Histogram<L> {
    return (this.existing(name) as Histogram<L>) ?? new Histogram({ name: checked(name), help, labelNames, buckets, registers: [this.registry] });
  }

  /** Times `fn` into a histogram (observed also when it throws). */
  async time<T, L extends string>(h: Histogram<L>, labels: Labels<L>, fn: () => Promise<T>): Promise<T> {
    const end = h.startTimer(labels as never);
    try {
      return await fn();
    } finally {
      end();
    }
  }

  remembered(r: { outcome: string; tier?: string | null }): void {
    this.rememberOutcomes.inc({ outcome: r.outcome, tier: r.outcome === 'REINFORCED' ? (r.tier ?? 'none') : 'none' });
  }

  /** The text exposition (what /metrics serves). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  /**
   * The GraphQL series through the ecosystem's plugin, on this registry, under engram_ names:
   * request latency by operation, operations and errors counted, deprecated fields used, HTTP
   * latency; served at `/metrics`. Labels a client chooses (operation names, error paths) are
   * bounded (graphql-metrics.ts).
   */
  graphqlPlugin(endpoint = '/metrics'): Plugin {
    return graphqlPrometheus(this.registry, endpoint);
  }

  private existing(name: string) {
    return this.registry.getSingleMetric(name);
  }
}

function checked(name: string): string {
  if (!name.startsWith(METRIC_PREFIX)) throw new Error(`metric ${name} must start with ${METRIC_PREFIX}`);
  return name;
}

/**
 * An embedder that reports its latency and failures, and whether it is loaded (readiness).
 * The wrapped embedder keeps its id, dimensions and thresholds.
 */
export class MeteredEmbedder implements Embedder {
  private initialised = false;
  constructor(readonly inner: Embedder, private readonly metrics: EngramMetrics) {}
  /** Whether the model is in memory (a lazy embedder's: since its first use). */
  get loaded(): boolean {
    return this.initialised || (this.inner as { loaded?: boolean }).loaded === true;
  }
  /** Whether the model loads on first use (src/embed/lazy-embedder.ts): not loaded yet is then no failure. */
  get lazy(): boolean {
    return (this.inner as { lazy?: boolean }).lazy === true;
  }
  get id() { return this.inner.id; }
  get dimensions() { return this.inner.dimensions; }
  get thresholds() { return this.inner.thresholds; }
  async init(): Promise<void> {
    await this.inner.init();
    this.initialised = true;
  }
  async embed(texts: string[]): Promise<Float32Array[]> {
    const end = this.metrics.embedSeconds.startTimer({ embedder: this.inner.id });
    try {
      return await this.inner.embed(texts);
    } catch (e) {
      this.metrics.embedFailures.inc({ embedder: this.inner.id });
      throw e;
    } finally {
      end();
    }
  }
  letGo(): void {
    this.inner.letGo?.();
  }
  async close(): Promise<void> {
    this.initialised = false;
    await this.inner.close();
  }
}

/** Runs a recall, timed into engram_recall_duration_seconds when the server's metrics are there. */
export function recallTimed<T>(metrics: EngramMetrics | undefined, operation: string, fn: () => Promise<T>): Promise<T> {
  return metrics ? metrics.time(metrics.recallSeconds, { operation }, fn) : fn();
}

/** engram_outbox_pending / engram_outbox_parked, read from the outbox at each scrape (0 without one: pgvector). */
export function watchOutbox(metrics: EngramMetrics, outbox: { status(limit?: number): Promise<{ pending: number; parked: number }> } | null): void {
  let last: Promise<{ pending: number; parked: number }> | null = null;
  // One status query per scrape for both gauges.
  const read = () => {
    last ??= (outbox ? outbox.status(0) : Promise.resolve({ pending: 0, parked: 0 })).finally(() => setTimeout(() => { last = null; }, 0));
    return last;
  };
  metrics.gauge('engram_outbox_pending', 'outbox rows waiting for the vector engine', [], async (g) => {
    g.set((await read().catch(() => ({ pending: NaN }))).pending);
  });
  metrics.gauge('engram_outbox_parked', 'outbox rows the engine refused too many times (kept; `engram outbox retry`)', [], async (g) => {
    g.set((await read().catch(() => ({ parked: NaN }))).parked);
  });
}

/**
 * engram_vector_mirror_bytes: the bytes of spaces' vectors the service holds in the
 * process for searching (docs/engines.md, "The vector mirror"; bounded by ENGRAM_VECTOR_MIRROR_MB);
 * 0 where there is none (ENGRAM_VECTOR_MIRROR_MB=0, another engine).
 */
export function watchVectorMirror(metrics: EngramMetrics, index: object): void {
  metrics.gauge('engram_vector_mirror_bytes', "bytes of spaces' vectors held in the process for searching (the vector mirror)", [], (g) => {
    const bytes = (index as { mirrorBytes?: number | null }).mirrorBytes;
    g.set(typeof bytes === 'number' ? bytes : 0);
  });
}
