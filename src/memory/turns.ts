import { stage } from './stages.js';

/**
 * Long work in the use cases, done in slices: `turns()` gives a function to call between steps
 * that lets the event loop run (other requests, the health check) once `sliceMs` of work went
 * by since the last turn. Without it, work awaited only through promises already resolved (an
 * in-process search, pure rules) never yields: a consolidation of 2,000 memories held every
 * request of the process for 2.4-3.7 s (found by a probe).
 */
export function turns(sliceMs = 10): () => Promise<void> | undefined {
  let since = performance.now();
  return () => {
    if (performance.now() - since < sliceMs) return undefined;
    return new Promise<void>((resolve) => setImmediate(() => {
      since = performance.now();
      resolve();
    }));
  };
}

/**
 * Runs pure work written as a generator (it pauses where the event loop may run: `deciding`, src/core/
 * recognition.ts) to its result, each step timed as the named stage, turns taken between steps.
 */
export async function inTurns<T>(name: string, steps: Generator<void, T, void>, turn = turns()): Promise<T> {
  for (;;) {
    const step = stage(name, () => steps.next());
    if (step.done) return step.value;
    const pause = turn();
    if (pause) await pause;
  }
}
