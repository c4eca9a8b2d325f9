/**
 * Named stages of the use cases, timed only when a hook is set (the quick bench's per-stage
 * breakdown, `bench/quick-profile.ts`): the JavaScript work between statements — the
 * recognition rules, the quote check, recall's ranking — that a statement profiler sees only
 * as "the rest". Without a hook a stage costs one null check.
 */

export type StageHook = (stage: string, ms: number) => void;
let hook: StageHook | null = null;

/** Bench only: receives every stage's time (null: stop). */
export function setStageHook(fn: StageHook | null): void {
  hook = fn;
}

/** Runs `fn` (synchronous) as the named stage. */
export function stage<T>(name: string, fn: () => T): T {
  if (!hook) return fn();
  const h = hook;
  const t = performance.now();
  try {
    return fn();
  } finally {
    h(name, performance.now() - t);
  }
}
