import { hostname } from 'node:os';
import type { SqlClient, Queryable } from '../store/sql-client.js';
import type { Logger } from '../ports/logger.js';
import type { EngramMetrics } from './metrics.js';

/** Advisory-lock keys live in one namespace (the first int of pg_advisory_xact_lock(int, int)). */
const LOCK_NAMESPACE = 0x45474d; // "EGM"

export type JobResult = 'ran' | 'skipped' | 'failed';

/**
 * Background work once across N instances on one PostgreSQL (docs/operations.md).
 *
 * - `exclusive(job, fn)`: one instance at a time. The caller's transaction holds
 *   `pg_advisory_xact_lock(EGM, hashtext(job))` while `fn` runs on other connections; another
 *   instance either skips (`wait: false`: background loops — the holder does the work) or
 *   waits (explicit calls). Used for the outbox drain (and with it LanceDB's compaction,
 *   which only the draining instance triggers).
 * - `every(job, ms, fn)`: a schedule. Each due time (`floor(now / ms) * ms`) is claimed in
 *   `job_runs` by `insert … on conflict do nothing`: exactly one instance runs it, the others
 *   see it taken. The table is the record of what ran, where and when.
 *
 * On PGlite (one process; its only connection would be held by the lock) both run `fn`
 * directly; schedules still record their runs.
 */
export class JobRunner {
  readonly instance = `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`;
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly db: SqlClient, private readonly log: Logger, private readonly metrics?: EngramMetrics) {}

  private get shared(): boolean {
    return this.db.driver === 'pg';
  }

  /** Runs `fn` unless (`wait: false`) another instance is running the same job. */
  async exclusive<T>(job: string, fn: () => Promise<T>, opts: { wait?: boolean } = {}): Promise<{ ran: true; value: T } | { ran: false }> {
    if (!this.shared) {
      const value = await fn();
      this.metrics?.jobRuns.inc({ job, result: 'ran' });
      return { ran: true, value };
    }
    const outcome = await this.db.transaction(async (tx: Queryable) => {
      if (opts.wait) await tx.query(`select pg_advisory_xact_lock($1, hashtext($2))`, [LOCK_NAMESPACE, job]);
      else {
        const got = (await tx.query<{ ok: boolean }>(`select pg_try_advisory_xact_lock($1, hashtext($2)) as ok`, [LOCK_NAMESPACE, job])).rows[0].ok;
        if (!got) return { ran: false as const };
      }
      // Errors come back as values: the lock's transaction commits either way.
      try {
        return { ran: true as const, value: await fn() };
      } catch (error) {
        return { ran: true as const, error };
      }
    });
    if (!outcome.ran) {
      this.metrics?.jobRuns.inc({ job, result: 'skipped' });
      return outcome;
    }
    this.metrics?.jobRuns.inc({ job, result: 'error' in outcome ? 'failed' : 'ran' });
    if ('error' in outcome) throw outcome.error;
    return outcome as { ran: true; value: T };
  }

  /** Runs `fn` once per due time across instances; returns a handle to stop the schedule. */
  every(job: string, everyMs: number, fn: () => Promise<void>): { stop(): void } {
    if (!everyMs || everyMs <= 0) return { stop() {} };
    const tick = async () => {
      if (this.stopped) return;
      const due = new Date(Math.floor(Date.now() / everyMs) * everyMs);
      let claimed: boolean;
      try {
        claimed = (await this.db.query(
          `insert into job_runs (job, due_at, instance) values ($1, $2, $3) on conflict (job, due_at) do nothing`,
          [job, due, this.instance],
        )).rowCount === 1;
      } catch (e) {
        this.log.warn({ err: e, job }, 'could not claim a scheduled job');
        return;
      }
      if (!claimed) {
        this.metrics?.jobRuns.inc({ job, result: 'skipped' });
        return;
      }
      let result: JobResult = 'ran';
      try {
        await fn();
      } catch (e) {
        result = 'failed';
        this.log.error({ err: e, job }, 'scheduled job failed');
      }
      this.metrics?.jobRuns.inc({ job, result });
      this.log.info({ job, dueAt: due.toISOString(), instance: this.instance, result }, 'scheduled job ran');
      await this.db.query(`update job_runs set finished_at = now(), result = $3 where job = $1 and due_at = $2`, [job, due, result])
        .catch(() => {});
      // The record is kept for the last thousand due times of each job.
      await this.db.query(`delete from job_runs where job = $1 and due_at < $2`, [job, new Date(due.getTime() - 1000 * everyMs)])
        .catch(() => {});
    };
    let busy = false;
    // Checked more often than it is due: a due time is missed by none, whichever instance is first.
    const timer = setInterval(() => {
      if (busy) return;
      busy = true;
      const p = tick().finally(() => { busy = false; this.running.delete(p); });
      this.running.add(p);
    }, Math.max(50, Math.min(everyMs / 4, 5_000)));
    timer.unref();
    this.timers.add(timer);
    return { stop: () => { clearInterval(timer); this.timers.delete(timer); } };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
    await Promise.allSettled([...this.running]);
  }
}
