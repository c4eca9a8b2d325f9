import type { Outbox, OutboxOp } from '../ports/outbox.js';
import type { Tx } from '../ports/memory-store.js';
import type { IndexedVector, VectorHit, VectorIndex, VectorSearch } from '../ports/vector-index.js';
import type { Logger } from '../ports/logger.js';
import type { MemoryKind, MemoryStatus } from '../core/types.js';
import { parseVector, toPgVectorText } from '../core/vectors.js';
import type { Queryable, SqlClient } from './sql-client.js';

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

  /** Applies pending rows until none is left or the engine fails. Returns how many were applied. */
  async drain(): Promise<number> {
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
      } catch (e) {
        this.failures++;
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

  /** Pending rows, collapsed per memory: the engine gets the memory's present state from PostgreSQL. */
  private async apply(rows: OutboxRow[]): Promise<void> {
    const spaces = rows.filter((r) => r.op === 'remove_space').map((r) => r.memory_id);
    for (const s of spaces) await this.index.removeSpace(s);
    const ids = [...new Set(rows.filter((r) => r.op !== 'remove_space').map((r) => r.memory_id))];
    if (ids.length === 0) return;
    const r = await this.db.query<{ memory_id: string; space_id: string; kind: MemoryKind; status: MemoryStatus; embedding: string }>(
      `select v.memory_id, v.space_id, v.kind, s.status, v.embedding::text as embedding
       from memory_vectors v join memory_state s on s.memory_id = v.memory_id where v.memory_id = any($1::text[])`,
      [ids],
    );
    const present: IndexedVector[] = r.rows.map((x) => ({
      memoryId: x.memory_id, spaceId: x.space_id, kind: x.kind, status: x.status,
      vector: parseVector(x.embedding, this.opts.dimensions),
    }));
    const presentIds = new Set(present.map((p) => p.memoryId));
    const gone = ids.filter((id) => !presentIds.has(id));
    if (present.length) await this.index.upsert(present);
    if (gone.length) await this.index.remove(gone);
  }

  async pendingHits(s: VectorSearch, tx?: Tx): Promise<VectorHit[]> {
    const q = (tx as Queryable | undefined) ?? this.db;
    const r = await q.query<{ memory_id: string; d: number }>(
      `select v.memory_id, v.embedding <=> $1::vector as d
       from memory_vectors v join memory_state st on st.memory_id = v.memory_id
       where v.memory_id in (select memory_id from vector_outbox where engine = $2 and op = 'upsert')
         and v.space_id = $3 and v.kind = $4 and st.status = any($5::text[])
       order by d limit $6`,
      [toPgVectorText(s.vector), this.index.name, s.spaceId, s.kind ?? 'STATEMENT', s.statuses ?? ['ACTIVE'], s.k],
    );
    return r.rows.map((x) => ({ memoryId: x.memory_id, score: 1 - Number(x.d) }));
  }

  async pendingCount(): Promise<number> {
    return Number((await this.db.query<{ n: number }>(
      `select count(*)::int as n from vector_outbox where engine = $1`, [this.index.name])).rows[0].n);
  }
}
