import type { Outbox, OutboxOp } from '../ports/outbox.js';
import type { Tx } from '../ports/memory-store.js';
import type { IndexedVector, VectorHit, VectorIndex, VectorSearch } from '../ports/vector-index.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryKind, MemoryStatus } from '../core/types.js';
import { parseVector, toPgVectorText } from '../core/vectors.js';
import type { Queryable, SqlClient } from './sql-client.js';

const METRIC_OP = { cosine: '<=>', l2: '<->' } as const;

/** Exact nearest neighbours from memory_vectors, with the engine filters (space, kind, status) and `extra`. */
async function exactSearch(q: Queryable, s: VectorSearch, extra: string, extraParams: unknown[]): Promise<VectorHit[]> {
  const metric = s.metric ?? 'cosine';
  const op = METRIC_OP[metric];
  const r = await q.query<{ memory_id: string; d: number }>(
    `select v.memory_id, v.embedding ${op} $1::vector as d
     from memory_vectors v join memory_state st on st.memory_id = v.memory_id
     where v.space_id = $2 and v.kind = $3 and st.status = any($4::text[]) and ${extra}
     order by (v.embedding ${op} $1::vector) + 0, v.memory_id limit $5`,
    [toPgVectorText(s.vector), s.spaceId, s.kind ?? 'STATEMENT', s.statuses ?? ['ACTIVE'], s.k, ...extraParams],
  );
  return r.rows.map((x) => ({ memoryId: x.memory_id, score: metric === 'cosine' ? 1 - Number(x.d) : -Number(x.d) }));
}

/**
 * Vectors with their present status, as an engine should hold them: by ids, or
 * one page of all of them in memory_id order (reindex walks the table with `after`).
 */
export async function readIndexedVectors(
  q: Queryable, dimensions: number, sel: { ids: readonly string[] } | { after: string | null; limit: number },
): Promise<IndexedVector[]> {
  const cols = `select v.memory_id, v.space_id, v.kind, s.status, v.embedding::text as embedding
     from memory_vectors v join memory_state s on s.memory_id = v.memory_id`;
  const r = 'ids' in sel
    ? await q.query<VectorRow>(`${cols} where v.memory_id = any($1::text[])`, [sel.ids])
    : await q.query<VectorRow>(`${cols} where ($1::text is null or v.memory_id > $1) order by v.memory_id limit $2`, [sel.after, sel.limit]);
  return r.rows.map((x) => ({
    memoryId: x.memory_id, spaceId: x.space_id, kind: x.kind, status: x.status, vector: parseVector(x.embedding, dimensions),
  }));
}

interface VectorRow { memory_id: string; space_id: string; kind: MemoryKind; status: MemoryStatus; embedding: string }

interface OutboxRow {
  id: number;
  memory_id: string;
  op: OutboxOp;
}

/**
 * The transactional outbox in PostgreSQL for engines outside it. Rows are
 * applied in id order, right after commit (`kick`) and every `intervalMs` by a
 * background loop; a failing engine leaves them in place and they drain when it
 * returns. Nothing acknowledged is lost: the vector itself stays in memory_vectors.
 */
export class SqlOutbox implements Outbox {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private failures = 0;
  /** After a failure, kicks wait until then (the background loop retries with backoff). */
  private retryAt = 0;
  private serial: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly db: SqlClient, private readonly index: VectorIndex, private readonly log: Logger,
    private readonly opts: { dimensions: number; intervalMs?: number; batch?: number },
  ) {}

  async enqueue(tx: Tx, items: { memoryId: string; op: OutboxOp }[]): Promise<void> {
    if (items.length === 0) return;
    await (tx as Queryable).query(
      `insert into vector_outbox (engine, memory_id, op) select $1, m, o from unnest($2::text[], $3::text[]) as x(m, o)`,
      [this.index.name, items.map((i) => i.memoryId), items.map((i) => i.op)],
    );
  }

  start(): void {
    if (this.timer) return;
    this.timer = setInterval(() => this.kick(), this.opts.intervalMs ?? 1_000);
    this.timer.unref();
    this.kick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  kick(): void {
    if (Date.now() < this.retryAt) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain()
      .then(() => undefined)
      .catch((e) => this.log.warn({ engine: this.index.name, cause: String(e) }, 'outbox drain failed; will retry'))
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /**
   * Applies pending rows until none is left or the engine fails (then throws,
   * leaving the rows in place). Returns how many were applied. Callable directly
   * (tests, shutdown) regardless of the retry backoff.
   */
  drain(): Promise<number> {
    // One drain at a time: two interleaved ones could land an older state after a newer one.
    const run = this.serial.then(() => this.drainNow());
    this.serial = run.catch(() => undefined);
    return run;
  }

  private async drainNow(): Promise<number> {
    let applied = 0;
    for (;;) {
      const rows = (await this.db.query<OutboxRow>(
        `select id, memory_id, op from vector_outbox where engine = $1 order by id limit $2`,
        [this.index.name, this.opts.batch ?? 500],
      )).rows;
      if (rows.length === 0) return applied;
      try {
        await this.apply(rows);
        this.failures = 0;
        this.retryAt = 0;
      } catch (e) {
        this.failures++;
        this.retryAt = Date.now() + Math.min(30_000, 250 * 2 ** Math.min(this.failures, 7));
        await this.db.query(
          `update vector_outbox set attempts = attempts + 1, last_error = $2 where id = any($1::bigint[])`,
          [rows.map((r) => r.id), String(e).slice(0, 500)],
        );
        throw e;
      }
      await this.db.query(`delete from vector_outbox where id = any($1::bigint[])`, [rows.map((r) => r.id)]);
      applied += rows.length;
    }
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
   * memory must be found again before the engine hears of it).
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

  async pendingCount(): Promise<number> {
    return Number((await this.db.query<{ n: number }>(
      `select count(*)::int as n from vector_outbox where engine = $1`, [this.index.name])).rows[0].n);
  }
}
