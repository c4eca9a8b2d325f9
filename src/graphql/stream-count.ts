/**
 * The subscriptions each token holds open (docs/limits.md): graphql-ws and server-sent events
 * together, in this process. Every event of a space is resolved once per subscription: one operator
 * token opening 300 subscriptions on one socket made each change of the space cost 300 resolutions,
 * and another client's query waited 10 s behind them. (Their reads are shared now, one set of
 * loaders per event: src/graphql/schema/subscriptions.ts; the resolutions are not.)
 */
export class StreamCount {
  private readonly open = new Map<string, number>();

  /** Takes a place for `key` (a token id): its release (once), or null when `max` are open already. */
  take(key: string, max: number): (() => void) | null {
    const n = this.open.get(key) ?? 0;
    if (n >= max) return null;
    this.open.set(key, n + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    };
  }

  /** How many are open, all tokens together. */
  total(): number {
    let n = 0;
    for (const v of this.open.values()) n += v;
    return n;
  }
}
