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
