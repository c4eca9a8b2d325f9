import type { MemoryRecord, MemoryStore, Tx } from '../ports/memory-store.js';
import type { AppliedMerge, MergeRequest, Resolution } from '../ports/memory-store.js';
import type { SweepItem } from '../core/cleanup-selection.js';
import { FROM_MEMORY, MEMORY_COLUMNS, dateOrNull, num, toMemory, type Row } from './sql-rows.js';
import { SqlLexicalForget } from './sql-lexical-forget.js';

export { parseTsvector, toMemory } from './sql-rows.js';

/**
 * The system of record over `SqlClient`. Its parts, each extending the one before:
 * sql-store-base.ts (connection, transactions, space lock, spaces, tokens, conversations),
 * sql-memory-writes.ts, sql-memory-reads.ts, sql-postings-held.ts, sql-lexical-forget.ts; this file adds the
 * tidy-up work (cleanup sweeps, resolution, consolidation's merges). Methods that take
 * `tx` run inside the caller's transaction; the others run on their own.
 */
export class SqlStore extends SqlLexicalForget implements MemoryStore {
  // ---- tidy: cleanup sweeps, resolution, consolidation ---------------------

  async sweepItems(tx: Tx | undefined, spaceId: string): Promise<SweepItem[]> {
    const r = await this.q(tx).query<Row>(
      `select m.id, m.type, s.status, m.starts_at, m.ends_at, m.due_at, m.all_day, s.resolution, s.merged_into
       ${FROM_MEMORY} where m.space_id = $1 order by m.seq`,
      [spaceId],
    );
    return r.rows.map((x) => ({
      id: x.id, type: x.type, status: x.status, startsAt: dateOrNull(x.starts_at), endsAt: dateOrNull(x.ends_at),
      dueAt: dateOrNull(x.due_at), allDay: !!x.all_day, resolution: x.resolution ?? null, mergedInto: x.merged_into ?? null,
    }));
  }

  async setResolution(tx: Tx | undefined, spaceId: string, id: string, resolution: Resolution | null, at: Date | null): Promise<boolean> {
    const r = await this.q(tx).query(
      `update memory_state set resolution = $3, resolved_at = $4, updated_at = now() where memory_id = $2 and space_id = $1`,
      [spaceId, id, resolution, at],
    );
    return r.rowCount > 0;
  }

  async activeStatements(tx: Tx | undefined, spaceId: string): Promise<MemoryRecord[]> {
    const r = await this.q(tx).query<Row>(
      `select ${MEMORY_COLUMNS} ${FROM_MEMORY} where m.space_id = $1 and m.kind = 'STATEMENT' and s.status = 'ACTIVE' order by m.seq`,
      [spaceId],
    );
    return r.rows.map(toMemory);
  }

  /** One statement for every merge of a pass: data-modifying CTEs over one snapshot. */
  async mergeMemories(tx: Tx, spaceId: string, merges: readonly MergeRequest[]): Promise<AppliedMerge[]> {
    if (merges.length === 0) return [];
    const r = await this.q(tx).query<Row>(
      `with req as (
         select * from unnest($2::text[], $3::text[], $4::text[], $5::real[]) as r(memory_id, into_id, tier, score)
       ), ok as (
         select req.*, s.mention_count as added from req
         join memory_state s on s.memory_id = req.memory_id and s.space_id = $1 and s.status = 'ACTIVE'
         join memory_state t on t.memory_id = req.into_id and t.space_id = $1 and t.status = 'ACTIVE'
         where req.memory_id <> req.into_id
       ), marked as (
         update memory_state s set status = 'MERGED', merged_into = ok.into_id, status_changed_at = now(), updated_at = now()
         from ok where s.memory_id = ok.memory_id returning s.memory_id
       ), bumped as (
         update memory_state t set mention_count = t.mention_count + x.total, updated_at = now()
         from (select into_id, sum(added)::int as total from ok group by into_id) x where t.memory_id = x.into_id
         returning t.memory_id
       )
       insert into memory_merges (space_id, memory_id, into_id, added, tier, score)
       select $1, memory_id, into_id, added, tier, score from ok
       returning memory_id, into_id, added, tier, score`,
      [spaceId, merges.map((m) => m.memoryId), merges.map((m) => m.intoId), merges.map((m) => m.tier), merges.map((m) => m.score)],
    );
    return r.rows.map((x) => ({ memoryId: x.memory_id, intoId: x.into_id, added: Number(x.added), tier: x.tier ?? null, score: num(x.score) }));
  }

  async unmergeMemory(tx: Tx, spaceId: string, memoryId: string): Promise<AppliedMerge | null> {
    const r = await this.q(tx).query<Row>(
      `with g as (
         select id, memory_id, into_id, added from memory_merges
         where memory_id = $2 and space_id = $1 and undone_at is null order by id desc limit 1
       ), st as (
         update memory_state s set status = 'ACTIVE', merged_into = null, status_changed_at = now(), updated_at = now()
         from g where s.memory_id = g.memory_id and s.status = 'MERGED' returning s.memory_id
       ), back as (
         update memory_state t set mention_count = t.mention_count - g.added, updated_at = now()
         from g, st where t.memory_id = g.into_id returning t.memory_id
       )
       update memory_merges mm set undone_at = now() from g, st where mm.id = g.id
       returning mm.memory_id, mm.into_id, mm.added, mm.tier, mm.score`,
      [spaceId, memoryId],
    );
    const x = r.rows[0];
    return x ? { memoryId: x.memory_id, intoId: x.into_id, added: Number(x.added), tier: x.tier ?? null, score: num(x.score) } : null;
  }

  async setLexicon(tx: Tx, items: readonly { memoryId: string; text: string }[]): Promise<void> {
    if (items.length === 0) return;
    await this.q(tx).query(
      `update memory_lexicon l set doc = to_tsvector('simple', x.t) from unnest($1::text[], $2::text[]) as x(id, t) where l.memory_id = x.id`,
      [items.map((i) => i.memoryId), items.map((i) => i.text)],
    );
  }

  async mergedDescendants(tx: Tx | undefined, spaceId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const r = await this.q(tx).query<{ id: string }>(
      `with recursive d(id) as (
         select memory_id from memory_state where merged_into = any($2::text[]) and space_id = $1 and status = 'MERGED'
         union
         select s.memory_id from memory_state s join d on s.merged_into = d.id where s.status = 'MERGED'
       ) select id from d`,
      [spaceId, ids],
    );
    return r.rows.map((x) => x.id);
  }

  async inferenceBases(tx: Tx, spaceId: string): Promise<{ id: string; basis: string }[]> {
    const r = await this.q(tx).query<{ id: string; basis: string }>(
      `select id, basis from memories where space_id = $1 and kind = 'INFERENCE' and basis is not null and basis <> ''`,
      [spaceId],
    );
    return r.rows;
  }

  async releaseMerges(tx: Tx, spaceId: string, ids: readonly string[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const r = await this.q(tx).query<{ memory_id: string }>(
      `update memory_state t set mention_count = t.mention_count - x.total, updated_at = now()
       from (select into_id, sum(added)::int as total from memory_merges
             where memory_id = any($2::text[]) and space_id = $1 and undone_at is null and not (into_id = any($2::text[]))
             group by into_id) x
       where t.memory_id = x.into_id returning t.memory_id`,
      [spaceId, ids],
    );
    return r.rows.map((x) => x.memory_id);
  }
}
