import type { Outbox, OutboxOp, OutboxStatus } from '../ports/outbox.js';
import type { Tx } from '../ports/memory-store.js';
import type { VectorHit, VectorIndex, VectorSearch } from '../ports/vector-index.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryStatus } from '../core/types.js';
import type { Queryable, SqlClient } from './sql-client.js';
import { exactSearch, readIndexedVectors } from './outbox-vectors.js';
import { DEFAULT_OUTBOX_MAX_ATTEMPTS, describeEngineError, isTransientEngineError } from './outbox-errors.js';

export { readIndexedVectors } from './outbox-vectors.js';
export { DEFAULT_OUTBOX_MAX_ATTEMPTS, describeEngineError, isTransientEngineError } from './outbox-errors.js';

interface OutboxRow {
  id: number;
  memory_id: string;
  op: OutboxOp;
}

/** One drain pass's outcome over a batch: rows applied, and groups of rows that failed with their error. */
interface BatchOutcome {
  applied: OutboxRow[];
  failed: { rows: OutboxRow[]; error: unknown }[];
  /** Nothing could be applied and two separate groups failed: the engine is down, not one row refused. */
  outage: boolean;
}

/** Rows grouped by what the engine is asked about: one memory, or one dropped space. */
function groupRows(rows: OutboxRow[]): OutboxRow[][] {
  const groups = new Map<string, OutboxRow[]>();
  for (const r of rows) {
    const key = `${r.op === 'remove_space' ? 's' : 'm'}:${r.memory_id}`;
    const g = groups.get(key);
    if (g) g.push(r);
    else groups.set(key, [r]);
  }
  return [...groups.values()];
}

/**
 * The transactional outbox in PostgreSQL for engines outside it. Rows are
 * applied in id order, right after commit (`kick`) and every `intervalMs` by a
 * background loop; a failing engine leaves them in place and they drain when it
 * returns. Nothing acknowledged is lost: the vector itself stays in memory_vectors.
 *
 * Dead letters: when a batch fails, it is split (bisected by memory) until the
 * rows the engine refuses are isolated, and everything else is applied. A row
 * refused `maxAttempts` times is parked: it stays in the table (so `pendingHits`
 * keeps its memory in recognition and recall), is logged at error level once, is
 * skipped by later drains, and is put back in line by `retryParked` (`engram
 * outbox retry`, `engram reindex`). An unreachable engine (see
 * `isTransientEngineError`) never counts towards parking.
 */
export class SqlOutbox implements Outbox {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  /** Commits kicked since the last drain began (an engine that gathers writes drains every `gatherWrites`). */
  private waiting = 0;
  private failures = 0;
  /** After a failure, kicks wait until then (the background loop retries with backoff). */
  private retryAt = 0;
  private serial: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: SqlClient, private readonly index: VectorIndex, private readonly log: Logger,
    private readonly opts: {
      dimensions: number; intervalMs?: number; batch?: number; maxAttempts?: number; probeParkedMs?: number;
      /**
       * One drainer across instances (src/ops/jobs.ts): runs the pass under a lock; with
       * `wait: false` (the background loop) it skips while another instance drains.
       */
      exclusive?: (fn: () => Promise<number>, wait: boolean) => Promise<{ ran: true; value: number } | { ran: false }>;
    },
  ) {}

  /**
   * While an engine is rebuilt from PostgreSQL (src/engine-epoch.ts) nothing is applied
   * to it (its rows wait) and searches use the exact scan of PostgreSQL.
   */
  rebuilding = false;
  private nextProbe = 0;
  private probeDelay = 0;
  private probing = false;

  /**
   * Parked rows are tried again by themselves once the engine may accept them (a
   * directory made writable again, a full disk freed): every `probeParkedMs` (30 s,
   * doubling up to 5 minutes while the engine still refuses them), the background
   * loop gives each parked row one more attempt. Applied ones are gone; refused
   * ones are parked again at once (one attempt, not `maxAttempts`).
   */
  private async probeParked(): Promise<void> {
    const base = this.opts.probeParkedMs ?? 30_000;
    if (this.probing || this.rebuilding || base <= 0 || Date.now() < this.nextProbe) return;
    this.probing = true;
    try {
      const requeued = (await this.db.query(
        `update vector_outbox set attempts = $2 - 1 where engine = $1 and attempts >= $2`, [this.index.name, this.maxAttempts])).rowCount ?? 0;
      if (requeued === 0) {
        this.probeDelay = base;
      } else {
        await this.drain().catch(() => 0);
        const stillParked = (await this.status(0)).parked;
        if (stillParked < requeued) {
          this.log.info({ engine: this.index.name, applied: requeued - stillParked, parked: stillParked },
            'parked outbox rows applied: the engine accepts writes again');
          this.probeDelay = base;
        } else {
          this.probeDelay = Math.min(5 * 60_000, Math.max(base, this.probeDelay * 2));
        }
      }
      this.nextProbe = Date.now() + (this.probeDelay || base);
    } catch (e) {
      this.log.warn({ engine: this.index.name, cause: String(e) }, 'outbox: probing parked rows failed');
    } finally {
      this.probing = false;
    }
  }

  /** Failed attempts after which a row is parked. */
  get maxAttempts(): number {
    return this.opts.maxAttempts ?? DEFAULT_OUTBOX_MAX_ATTEMPTS;
  }

  async enqueue(tx: Tx, items: { memoryId: string; op: OutboxOp }[]): Promise<void> {
    if (items.length === 0) return;
    await (tx as Queryable).query(
      `insert into vector_outbox (engine, memory_id, op) select $1, m, o from unnest($2::text[], $3::text[]) as x(m, o)`,
      [this.index.name, items.map((i) => i.memoryId), items.map((i) => i.op)],
    );
  }

  start(): void {
    if (this.timer) return;
    this.nextProbe = Date.now() + (this.opts.probeParkedMs ?? 30_000);
    this.timer = setInterval(() => {
      this.drainSoon();
      void this.probeParked();
    }, this.opts.intervalMs ?? 1_000);
    this.timer.unref();
    this.drainSoon();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Whether the background loop runs (a rebuild stops it and starts it again). */
  get started(): boolean {
    return this.timer !== null;
  }

  kick(): void {
    const gather = this.index.capabilities.gatherWrites ?? 1;
    // Without a background loop (tests, tools) nothing else would apply them: at once.
    if (++this.waiting < gather && this.timer) return;
    this.drainSoon();
  }

  private drainSoon(): void {
    if (this.rebuilding || Date.now() < this.retryAt) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drainOnce(false)
      .then(() => undefined)
      .catch((e) => this.log.warn({ engine: this.index.name, cause: String(e) }, 'outbox drain failed; will retry'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.drainSoon();
        }
      });
  }

  /**
   * Applies pending rows (parked ones aside) in id order. Rows the engine refuses
   * are isolated and left in place (parked once refused `maxAttempts` times);
   * everything else is applied. Throws when a pass applied nothing and something
   * failed (the engine is down, or the only rows left are refused), leaving the
   * rows in place. Returns how many were applied. Callable directly (tests,
   * shutdown) regardless of the retry backoff.
   */
  drain(): Promise<number> {
    return this.drainOnce(true);
  }

  private drainOnce(wait: boolean): Promise<number> {
    // One drain at a time: two interleaved ones could land an older state after a newer one.
    const ex = this.opts.exclusive;
    const run = this.serial.then(() => (ex ? ex(() => this.drainNow(), wait).then((r) => (r.ran ? r.value : 0)) : this.drainNow()));
    this.serial = run.catch(() => undefined);
    return run;
  }

  private async drainNow(): Promise<number> {
    this.waiting = 0;
    let applied = 0;
    let firstError: unknown = null;
    // Rows that failed in this pass stay behind the cursor: the pass moves on to the rows after them.
    let after = 0;
    for (;;) {
      const rows = (await this.db.query<OutboxRow>(
        `select id, memory_id, op from vector_outbox where engine = $1 and attempts < $2 and id > $3 order by id limit $4`,
        [this.index.name, this.maxAttempts, after, this.opts.batch ?? 500],
      )).rows.map((r) => ({ ...r, id: Number(r.id) }));
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      const out = await this.applyIsolating(rows);
      if (out.applied.length) {
        await this.db.query(`delete from vector_outbox where id = any($1::bigint[])`, [out.applied.map((r) => r.id)]);
        await this.dropCoveredParked(out.applied);
        applied += out.applied.length;
      }
      if (out.failed.length) {
        firstError ??= out.failed[0].error;
        await this.recordFailures(out);
      }
      // The engine is down: the rows after these would fail the same way.
      if (out.outage) break;
    }
    if (firstError !== null && applied === 0) {
      this.failures++;
      this.retryAt = Date.now() + Math.min(30_000, 250 * 2 ** Math.min(this.failures, 7));
      throw firstError;
    }
    this.failures = 0;
    this.retryAt = 0;
    return applied;
  }

  /**
   * Applies a batch; when the engine refuses it, bisects it by memory until the
   * refused groups are isolated and the rest is applied. Stops early when nothing
   * can be applied at all (two separate groups failed and none succeeded): an
   * outage costs a handful of calls, not one per row.
   */
  private async applyIsolating(rows: OutboxRow[]): Promise<BatchOutcome> {
    const out: BatchOutcome = { applied: [], failed: [], outage: false };
    try {
      await this.apply(rows);
      out.applied.push(...rows);
      return out;
    } catch (e) {
      await this.bisect(groupRows(rows), out, e);
      return out;
    }
  }

  private async bisect(groups: OutboxRow[][], out: BatchOutcome, known?: unknown): Promise<void> {
    if (out.outage || groups.length === 0) return;
    let error = known;
    if (error === undefined) {
      try {
        const rows = groups.flat();
        await this.apply(rows);
        out.applied.push(...rows);
        return;
      } catch (e) {
        error = e;
      }
    }
    if (groups.length === 1) {
      if (out.applied.length === 0 && out.failed.length > 0) out.outage = true;
      out.failed.push({ rows: groups[0], error });
      return;
    }
    const mid = Math.ceil(groups.length / 2);
    await this.bisect(groups.slice(0, mid), out);
    await this.bisect(groups.slice(mid), out);
  }

  /**
   * Counts a failed attempt on the rows to blame and parks those that reached
   * `maxAttempts` (logged at error level, once: a parked row is not tried again).
   * When the engine is down only the first group is blamed, and only for a
   * failure that is not transient; other failed rows just get `last_error`.
   */
  private async recordFailures(out: BatchOutcome): Promise<void> {
    const blamed = (out.outage ? out.failed.slice(0, 1) : out.failed).filter((f) => !isTransientEngineError(f.error));
    const blamedIds = new Set(blamed.flatMap((f) => f.rows.map((r) => r.id)));
    for (const f of out.failed) {
      const ids = f.rows.map((r) => r.id);
      const error = describeEngineError(f.error);
      if (!ids.some((id) => blamedIds.has(id))) {
        await this.db.query(`update vector_outbox set last_error = $2 where id = any($1::bigint[])`, [ids, error]);
        continue;
      }
      const parked = (await this.db.query<{ id: number; memory_id: string; op: OutboxOp; attempts: number }>(
        `update vector_outbox set attempts = attempts + 1, last_error = $2 where id = any($1::bigint[])
         returning id, memory_id, op, attempts`,
        [ids, error],
      )).rows.filter((r) => Number(r.attempts) >= this.maxAttempts);
      for (const r of parked) {
        this.log.error(
          { engine: this.index.name, outboxId: Number(r.id), memoryId: r.memory_id, op: r.op, attempts: Number(r.attempts), cause: error },
          'outbox row parked: the engine refused it too many times; recall still finds the memory (exact scan); `engram outbox retry` or `engram reindex` replays it',
        );
      }
    }
  }

  /**
   * A parked row is obsolete once a later row of the same memory replaced the
   * engine's whole copy (an upsert or a removal replays the present state).
   */
  private async dropCoveredParked(applied: OutboxRow[]): Promise<void> {
    const covering = applied.filter((r) => r.op === 'upsert' || r.op === 'remove');
    if (covering.length === 0) return;
    await this.db.query(
      `delete from vector_outbox o using unnest($2::text[], $3::bigint[]) as x(m, last)
       where o.engine = $1 and o.attempts >= $4 and o.op <> 'remove_space' and o.memory_id = x.m and o.id < x.last`,
      [this.index.name, covering.map((r) => r.memory_id), covering.map((r) => r.id), this.maxAttempts],
    );
  }

  /**
   * Puts parked rows back in line (attempts reset to 0) and returns how many;
   * the next drain tries them again. For `engram outbox retry` and `reindex`.
   */
  async retryParked(): Promise<number> {
    const r = await this.db.query(
      `update vector_outbox set attempts = 0 where engine = $1 and attempts >= $2`, [this.index.name, this.maxAttempts]);
    this.failures = 0;
    this.retryAt = 0;
    return r.rowCount ?? 0;
  }

  /** Rows waiting and rows parked, with the oldest `limit` parked rows, for operators. */
  async status(limit = 20): Promise<OutboxStatus> {
    const counts = (await this.db.query<{ pending: number; parked: number }>(
      `select count(*) filter (where attempts < $2)::int as pending, count(*) filter (where attempts >= $2)::int as parked
       from vector_outbox where engine = $1`,
      [this.index.name, this.maxAttempts],
    )).rows[0];
    const rows = (await this.db.query<{ id: number; memory_id: string; op: OutboxOp; attempts: number; last_error: string | null; created_at: Date | string }>(
      `select id, memory_id, op, attempts, last_error, created_at from vector_outbox
       where engine = $1 and attempts >= $2 order by id limit $3`,
      [this.index.name, this.maxAttempts, limit],
    )).rows;
    return {
      engine: this.index.name, pending: Number(counts.pending), parked: Number(counts.parked), maxAttempts: this.maxAttempts,
      parkedRows: rows.map((r) => ({
        id: Number(r.id), memoryId: r.memory_id, op: r.op, attempts: Number(r.attempts), lastError: r.last_error, createdAt: new Date(r.created_at),
      })),
    };
  }

  /**
   * Pending rows, collapsed per memory: the engine gets the memory's present
   * state from PostgreSQL, so replaying a row twice or out of order is harmless.
   * A memory with only status rows pending gets a status change (no vector
   * rewrite); one with an upsert pending gets its whole present row; one whose
   * vector is gone (forgotten, space dropped) is removed.
   */
  private async apply(rows: OutboxRow[]): Promise<void> {
    const spaces = [...new Set(rows.filter((r) => r.op === 'remove_space').map((r) => r.memory_id))];
    for (const s of spaces) await this.index.removeSpace(s);
    const byId = new Map<string, Set<OutboxOp>>();
    for (const r of rows) {
      if (r.op === 'remove_space') continue;
      const ops = byId.get(r.memory_id) ?? new Set<OutboxOp>();
      ops.add(r.op);
      byId.set(r.memory_id, ops);
    }
    if (byId.size === 0) return;
    const present = await readIndexedVectors(this.db, this.opts.dimensions, { ids: [...byId.keys()] });
    const presentIds = new Set(present.map((p) => p.memoryId));
    const gone = [...byId.keys()].filter((id) => !presentIds.has(id));
    const upserts = present.filter((p) => byId.get(p.memoryId)!.has('upsert') || byId.get(p.memoryId)!.has('remove'));
    const statusOnly = present.filter((p) => !upserts.includes(p));
    if (upserts.length) await this.index.upsert(upserts);
    const byStatus = new Map<MemoryStatus, string[]>();
    for (const p of statusOnly) byStatus.set(p.status, [...(byStatus.get(p.status) ?? []), p.memoryId]);
    for (const [status, ids] of byStatus) await this.index.setStatus(ids, status);
    if (gone.length) await this.index.remove(gone);
  }

  /**
   * Exact scores of memories with any row not applied yet: a new vector the
   * engine has not seen, or a status the engine does not know yet (an unmuted
   * memory must be found again before the engine hears of it). Parked rows
   * included: a memory the engine refuses is still recognised and recalled.
   */
  async pendingHits(s: VectorSearch, tx?: Tx): Promise<VectorHit[]> {
    return exactSearch((tx as Queryable | undefined) ?? this.db, s,
      `v.memory_id in (select memory_id from vector_outbox where engine = $6 and op in ('upsert', 'status'))`, [this.index.name]);
  }

  /**
   * The same search as the engine's, answered exactly from memory_vectors. Lets a
   * caller keep recognising while the engine cannot be reached (every vector is
   * in PostgreSQL); an exact scan of one space, so slower on very large spaces.
   */
  async fallbackHits(s: VectorSearch, tx?: Tx): Promise<VectorHit[]> {
    return exactSearch((tx as Queryable | undefined) ?? this.db, s, 'true', []);
  }

  /** Rows waiting to be applied (parked rows not included: see `status`). */
  async pendingCount(): Promise<number> {
    return Number((await this.db.query<{ n: number }>(
      `select count(*)::int as n from vector_outbox where engine = $1 and attempts < $2`, [this.index.name, this.maxAttempts])).rows[0].n);
  }
}
