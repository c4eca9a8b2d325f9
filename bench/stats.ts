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
