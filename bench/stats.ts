/** Timing and summary statistics for the bench: nearest-rank percentiles over milliseconds. */
import { performance } from 'node:perf_hooks';

export interface LatencySummary {
  samples: number;
  p50: number;
  p95: number;
  p99: number;
  mean: number;
  /** Operations per second over the summed latencies (one client, back to back). */
  throughput: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function summarize(ms: number[]): LatencySummary {
  const s = [...ms].sort((a, b) => a - b);
  const total = s.reduce((a, b) => a + b, 0);
  return {
    samples: s.length,
    p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99),
    mean: s.length ? total / s.length : NaN,
    throughput: total > 0 ? (s.length * 1000) / total : NaN,
  };
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, value };
}

export function timedSync<T>(fn: () => T): { ms: number; value: T } {
  const t = performance.now();
  const value = fn();
  return { ms: performance.now() - t, value };
}

/**
 * Runs `fn(i)` for i < count, one after another, and stops early once `budgetMs`
 * is spent (the figures then rest on fewer samples: the count is reported).
 */
export async function sample(count: number, budgetMs: number, fn: (i: number) => Promise<number>): Promise<number[]> {
  const out: number[] = [];
  const start = performance.now();
  for (let i = 0; i < count; i++) {
    out.push(await fn(i));
    if (performance.now() - start > budgetMs && out.length >= Math.min(count, 20)) break;
  }
  return out;
}

export const now = (): number => performance.now();

export interface WarmUp { passes: number; lastMs: number }

/**
 * Runs `pass(j)` in blocks of `block` until the passes have settled: a block's median within
 * `tolerance` of the block's before, after at least `min` passes, and never more than `max`.
 * USE-lite's worker thread, started afresh, takes 12–16 ms a sentence over its first ~150 passes
 * and ~10 ms from ~200 on (its JavaScript tiers up), with plateaus on the way (blocks of 50:
 * 14.0, 15.2, 13.9, 11.0, 10.0, 9.9): `min` is past them. Measured before it settles, a use case
 * that embeds is charged with the embedder's warm-up (docs/bench.md, "Forty-fourth round").
 */
export async function warmUpEmbedder(
  pass: (j: number) => Promise<unknown>,
  opts: { block?: number; min?: number; max?: number; tolerance?: number; clock?: () => number } = {},
): Promise<WarmUp> {
  const { block = 50, min = 300, max = 1_000, tolerance = 0.05, clock = now } = opts;
  if (!(Number.isInteger(block) && block > 0 && max >= block)) throw new RangeError(`warm-up: block ${block} and max ${max} must be integers, 0 < block <= max`);
  let passes = 0;
  let before = Number.NaN;
  for (;;) {
    const ms: number[] = [];
    for (let i = 0; i < block; i++) {
      const t = clock();
      await pass(passes++);
      ms.push(clock() - t);
    }
    const median = percentile([...ms].sort((a, b) => a - b), 50);
    const settled = Math.abs(median - before) <= tolerance * before;
    before = median;
    if ((settled && passes >= min) || passes >= max) return { passes, lastMs: median };
  }
}
