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
