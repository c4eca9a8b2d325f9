/**
 * When to compact a LanceDB table. Every write (merge, update, delete) makes
 * a new table version and new small files; `optimize()` merges the fragments,
 * folds new rows into the indices and prunes old versions. It runs after
 * `everyWrites` write operations, or on the timer once `everyMs` has passed
 * since the last run with at least one write in between and the writes have
 * paused (`quietMs`): between bursts, not in them. A compaction rewrites every
 * fragment below LanceDB's target of 1M rows, that is the whole table of a
 * space of 100K (tens of seconds with its ANN index), and writes wait behind it
 * in the adapter's queue. Writes that never pause are still compacted every
 * `everyWrites`, and the timer stops waiting for a pause after 10 × `everyMs`.
 * Since a compaction costs what the table holds, the timer also waits until the
 * rows written since the last one are a share of the table (`minShare`, 1 %):
 * a few hundred new rows in a 100K table are read well enough as they are
 * (a few small fragments, searched flat beside the index) and do not pay for
 * rewriting 100K rows.
 */
export interface CompactionPolicy {
  /** Write operations (not rows) between two compactions. 0 disables the write trigger. */
  everyWrites: number;
  /** Milliseconds between two timed compactions (only if something was written). 0 disables the timer. */
  everyMs: number;
  /** Versions older than this are pruned by a compaction. */
  keepVersionsMs: number;
  /** The timer's compaction waits until nothing was written for this long (default 5 s; 0: does not wait). */
  quietMs?: number;
  /** The timer's compaction waits until the rows written since the last one are this share of the table's rows (default 0.01; 0: any). */
  minShare?: number;
}

/** How long the timer's compaction waits for the writes to pause, unless the policy says. */
const DEFAULT_QUIET_MS = 5_000;
/** The share of the table written since the last compaction that the timer's compaction waits for, unless the policy says. */
const DEFAULT_MIN_SHARE = 0.01;

export const DEFAULT_COMPACTION: CompactionPolicy = { everyWrites: 100, everyMs: 60_000, keepVersionsMs: 10 * 60_000 };

/** Runs `compact` on the policy's schedule; one run at a time, errors go to `onError`. */
export class CompactionSchedule {
  private writes = 0;
  /** Rows written since the last compaction, and the table's rows as the last compaction (or the opening) left them. */
  private rows = 0;
  private tableRows = 0;
  private lastRun = Date.now();
  private lastWrite = 0;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** Completed compactions (tests and logs read it). */
  runs = 0;

  constructor(
    private readonly policy: CompactionPolicy,
    private readonly compact: () => Promise<void>,
    private readonly onError: (e: unknown) => void,
  ) {}

  private get quietMs(): number {
    return this.policy.quietMs ?? DEFAULT_QUIET_MS;
  }

  start(): void {
    if (this.timer || this.policy.everyMs <= 0) return;
    this.timer = setInterval(() => this.tick(), Math.min(this.policy.everyMs, 10_000, Math.max(1_000, this.quietMs)));
    this.timer.unref();
  }

  /** A write operation of `rows` rows (inserted, updated or deleted). */
  noteWrite(rows = 1): void {
    this.writes++;
    this.rows += rows;
    this.lastWrite = Date.now();
    if (this.policy.everyWrites > 0 && this.writes >= this.policy.everyWrites) this.trigger();
  }

  /** The table's rows, as a compaction left it: what `minShare` is a share of. */
  sized(tableRows: number): void {
    this.tableRows = tableRows;
  }

  /** The timer's check (every min(everyMs, 10 s, quietMs), at least 1 s apart); public for tests. */
  tick(now = Date.now()): void {
    if (this.writes === 0 || now - this.lastRun < this.policy.everyMs) return;
    if (this.rows < (this.policy.minShare ?? DEFAULT_MIN_SHARE) * this.tableRows) return;
    const quiet = now - this.lastWrite >= this.quietMs;
    if (quiet || now - this.lastRun >= 10 * this.policy.everyMs) this.trigger();
  }

  /** Starts a compaction unless one is running; resolves when the current one ends. */
  trigger(): Promise<void> {
    if (!this.running) {
      this.writes = 0;
      this.rows = 0;
      this.lastRun = Date.now();
      this.running = this.compact()
        .then(() => { this.runs++; })
        .catch(this.onError)
        .finally(() => { this.running = null; });
    }
    return this.running;
  }

  /** Compacts now if anything was written since the last run (used on close). */
  async flush(): Promise<void> {
    if (this.writes > 0) await this.trigger();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }
}
