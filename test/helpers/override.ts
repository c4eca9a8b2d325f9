/**
 * `target` seen through a Proxy with some members replaced: every other member is read from the
 * original, its methods bound to it (so a replaced method may call the original's own). For tests
 * that watch or hold a use case's calls to its store or vector index.
 */
export function overriding<T extends object>(target: T, replaced: Record<string, unknown>): T {
  return new Proxy(target, {
    get(obj, prop) {
      if (typeof prop === 'string' && Object.hasOwn(replaced, prop)) return replaced[prop];
      const v = Reflect.get(obj, prop, obj);
      return typeof v === 'function' ? v.bind(obj) : v;
    },
  });
}

/**
 * The store's SQL client, for tests that spy on its statements, and its own `query` (bound, so a
 * spy can pass a statement on to it).
 */
export function storeClient(store: object): { db: { query: Query }; query: Query } {
  const db = (store as { db: { query: Query } }).db;
  return { db, query: db.query.bind(db) };
}

type Query = (sql: string, params?: unknown[]) => Promise<unknown>;

/** `embedder` with its embeddings watched: `embedded()` says whether one has come back yet (a use case's statements after it are its tail). */
export function watchedEmbedder<E extends { embed(texts: string[]): Promise<unknown> }>(embedder: E): { embedder: E; embedded: () => boolean } {
  let came = false;
  const watched = overriding(embedder, { embed: async (texts: string[]) => {
    const v = await embedder.embed(texts);
    came = true;
    return v;
  } });
  return { embedder: watched, embedded: () => came };
}
