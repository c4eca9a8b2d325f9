/**
 * Counts to add to rows, gathered for one write (the recall counters: docs/recall.md, "The
 * recall counters"). Each `add` counts its ids; the counts are handed to `write` together once
 * `delayMs` have passed since the first of them, at once when `maxIds` distinct ids wait, or
 * when `flush` is called (the store's `settled`, before it closes). Twenty recalls in a second
 * cost one statement instead of twenty; a memory recalled twice meanwhile gets two.
 */
export interface GatherOptions {
  /** How long the first count waits for others (ms). */
  delayMs: number;
  /** Distinct ids that are written at once, whatever the delay. */
  maxIds: number;
}

export type WriteCounts = (ids: string[], counts: number[]) => Promise<void>;

export class GatheredCounts {
  private pending = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  /** `issue` receives every write begun (the store keeps it as work after an answer). */
  constructor(private readonly write: WriteCounts, private readonly issue: (w: Promise<void>) => Promise<void>, private readonly o: GatherOptions) {}

  /** Counts one for each id (an id twice: two); the write it joins, once issued. */
  add(ids: readonly string[]): Promise<void> | null {
    for (const id of ids) this.pending.set(id, (this.pending.get(id) ?? 0) + 1);
    if (this.pending.size >= this.o.maxIds) return this.flush();
    if (!this.timer && this.pending.size > 0) {
      this.timer = setTimeout(() => void this.flush(), this.o.delayMs);
      // a CLI process is not held open by a count: its close flushes (`settled`)
      this.timer.unref();
    }
    return null;
  }

  /** Writes what is gathered now (nothing gathered: no statement). */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.size === 0) return Promise.resolve();
    const ids = [...this.pending.keys()].sort();
    const counts = ids.map((id) => this.pending.get(id)!);
    this.pending = new Map();
    return this.issue(this.write(ids, counts));
  }
}
