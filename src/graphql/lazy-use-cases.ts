import type { Embedder } from '../ports/embedder.js';

type UseCases = typeof import('./use-cases.js');
let loading: Promise<UseCases> | null = null;

/**
 * The use cases, imported on the first call (src/graphql/use-cases.ts says why); later calls
 * resolve at once. `warm`: an embedder the caller is about to use — its model starts loading
 * (in its own thread) before the modules are evaluated, so the first remember or recall after
 * a start waits for the longer of the two, not for both. A failed import is retried.
 */
export function useCases(warm?: Embedder): Promise<UseCases> {
  if (!loading) {
    warm?.init().catch(() => { /* the use case's own embedding reports it */ });
    loading = import('./use-cases.js');
    loading.catch(() => { loading = null; });
  }
  return loading;
}
