import type { MemoryEvent, MemoryRecord, NewEvent, NewMemory, Reinforcement, Tx } from '../ports/memory-store.js';
import type { MemoryKind, MemoryStatus } from '../core/types.js';
import { toPgVectorParam } from '../core/vectors.js';
import { setStatusLogged } from './bulk-sql.js';
import { GatheredCounts } from './gathered-counts.js';
import { EVENTS_INSERT, MEMORY_COLUMNS, MEMORY_COLUMN_NAMES, fromJsonRows, jsonRows, toEvent, toMemory, type Row } from './sql-rows.js';
import { SqlStoreBase } from './sql-store-base.js';

/**
 * The last select of a write that returns the record as written (`from` joins m and s) and its
 * events if any (CTE ev): the record as one JSON text (jsonRows), not a row of 35 columns for
 * PGlite's driver to parse (~0.12 ms less per insert measured apart).
 */
const writtenRow = (from: string, events: boolean): string =>
  `select ${jsonRows('x', MEMORY_COLUMN_NAMES)} as rows${events ? `, (select json_agg(e order by e.id) from ev e) as events` : ''}
       from (select ${MEMORY_COLUMNS} ${from}) x`;

/**
 * The condition a write checked by the space's last event id adds to its last select (`space`: the
 * space's parameter): `engram_unchanged_since` (migration 16) raises if the id moved past `seen`,
 * and the whole statement then writes nothing.
 */
const unchangedSince = (seen: number | null, space: string, param: (v: unknown) => string): string =>
  seen === null ? '' : ` where engram_unchanged_since(${space}, ${param(seen)}::bigint)`;

/** The record and events `writtenRow` returned. */
function writtenRecord(row: Row, events: boolean): MemoryRecord & { events?: MemoryEvent[] } {
  const memory: MemoryRecord & { events?: MemoryEvent[] } = toMemory(fromJsonRows(row.rows as string, MEMORY_COLUMN_NAMES)[0]!);
  if (events) memory.events = ((typeof row.events === 'string' ? JSON.parse(row.events) : row.events) as Row[]).map(toEvent);
  return memory;
}

/** Writes after their answers that may be pending at once before a caller waits for its own (`incrementRecall`). */
const AFTER_ANSWER_MAX = 64;
/** The recall counters: a count waits up to 200 ms for others; 1,000 memories waiting are written at once. */
const RECALL_GATHER = { delayMs: 200, maxIds: 1_000 };

/** The SqlStore's writes to memories: insert, vector copy, reinforcement, statuses, counters, events. */
export class SqlMemoryWrites extends SqlStoreBase {
  /**
   * One statement writes the memory, its state, its original mention and its lexicon
   * entry (data-modifying CTEs; foreign keys are checked at the statement's end), and
   * returns the record as written, so the caller need not read it back.
   */
  async insertMemory(tx: Tx, m: NewMemory): Promise<MemoryRecord & { events?: MemoryEvent[] }> {
    return this.insertStatement(tx, m, null);
  }

  /** Where statements run one at a time (PGlite): see MemoryStore.insertMemoryIfUnchanged. */
  get oneStatementAtATime(): boolean {
    return this.db.driver === 'pglite';
  }

  /**
   * The insert as a statement of its own that checks first (`engram_unchanged_since`, migration 16)
   * that the space's last event id is still `seen`: null, nothing written, if it moved. Only where
   * statements run one at a time: there the check and the write are one atomic step.
   */
  async insertMemoryIfUnchanged(seen: number, m: NewMemory): Promise<(MemoryRecord & { events?: MemoryEvent[] }) | null> {
    return this.ifUnchanged(() => this.insertStatement(undefined, m, seen));
  }

  /** A statement checked by `engram_unchanged_since`: null if it raised (the space was written since; nothing written). */
  private async ifUnchanged<T>(write: () => Promise<T>): Promise<T | null> {
    if (!this.oneStatementAtATime) throw new Error('a write checked by the last event id alone: only where statements run one at a time');
    try {
      return await write();
    } catch (e) {
      if ((e as { code?: string }).code === 'EG001') return null;
      throw e;
    }
  }

  private async insertStatement(tx: Tx | undefined, m: NewMemory, seen: number | null): Promise<MemoryRecord & { events?: MemoryEvent[] }> {
    const params: unknown[] = [m.id, m.spaceId, m.kind, m.type, m.quote, m.normalized, m.conversationId, m.messageId, m.context, m.basis,
      m.saidAt, m.startsAt ?? null, m.endsAt ?? null, m.dueAt ?? null, m.allDay ?? false,
      m.importance, m.valence, m.entities, m.themes, m.tags, m.embeddingStatus, m.review, m.lexicalText];
    const p = (v: unknown) => `$${params.push(v)}`;
    // The vector row as VectorIndex.upsert writes it (a new memory: nothing to conflict with).
    const vx = m.vector
      ? `, vx as (insert into memory_vectors (memory_id, space_id, kind, embedder, embedding)
           values ($1, $2, $3, ${p(m.vector.embedder)}, ${p(toPgVectorParam(m.vector.vector))}::vector))`
      : '';
    const events = m.events ?? [];
    const ev = events.length
      ? `, ev as (${EVENTS_INSERT(events, p)} returning *)`
      : '';
    const r = await this.q(tx).query<Row>(
      `with m as (
         insert into memories (id, space_id, kind, type, quote, normalized, conversation_id, message_id, context, basis,
           said_at, starts_at, ends_at, due_at, all_day)
         values ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15) returning *
       ), s as (
         insert into memory_state (memory_id, space_id, kind, type, last_mentioned_at, importance, valence, entities, themes,
           tags, embedding_status, review)
         values ($1,$2,$3,$4,$11,$16,$17,$18::text[],$19::text[],$20::text[],$21,$22) returning *
       ), mn as (
         insert into mentions (id, memory_id, space_id, quote, conversation_id, message_id, said_at, tier, score)
         values ($1 || ':0',$1,$2,$5,$7,$8,$11,'ORIGINAL',null)
       ), lx as (
         insert into memory_lexicon (memory_id, space_id, doc) values ($1, $2, to_tsvector('simple', $23))
       )${vx}${ev}
       ${writtenRow(`from m join s on s.memory_id = m.id${unchangedSince(seen, '$2', p)}`, !!ev)}`,
      params,
    );
    return writtenRecord(r.rows[0]!, !!ev);
  }

  /** The system-of-record copy of a vector (every engine can be rebuilt from it). */
  async putVector(tx: Tx, v: { memoryId: string; spaceId: string; kind: MemoryKind; embedder: string; vector: Float32Array }): Promise<void> {
    await this.q(tx).query(
      `insert into memory_vectors (memory_id, space_id, kind, embedder, embedding) values ($1, $2, $3, $4, $5::vector)
       on conflict (memory_id) do update set embedding = excluded.embedding, embedder = excluded.embedder`,
      [v.memoryId, v.spaceId, v.kind, v.embedder, toPgVectorParam(v.vector)],
    );
  }

  /**
   * One statement: the counters and lists, the new mention, the new wording in the lexicon, and
   * the events when given; returns the record as updated (and the events as written).
   */
  async reinforce(tx: Tx, r: Reinforcement, spaceId: string): Promise<MemoryRecord & { events?: MemoryEvent[] }> {
    return this.reinforceStatement(tx, r, spaceId, null);
  }

  /** `reinforce` as a statement of its own, checked as `insertMemoryIfUnchanged` is (null: nothing written). */
  async reinforceIfUnchanged(seen: number, r: Reinforcement, spaceId: string): Promise<(MemoryRecord & { events?: MemoryEvent[] }) | null> {
    return this.ifUnchanged(() => this.reinforceStatement(undefined, r, spaceId, seen));
  }

  private async reinforceStatement(tx: Tx | undefined, r: Reinforcement, spaceId: string, seen: number | null): Promise<MemoryRecord & { events?: MemoryEvent[] }> {
    const params: unknown[] = [r.memoryId, r.lastMentionedAt, r.importance, r.valence, r.entities, r.themes, r.tags,
      r.mention.id, spaceId, r.mention.quote, r.mention.conversationId, r.mention.messageId,
      r.mention.saidAt, r.mention.tier, r.mention.score, r.lexicalText];
    const events = r.events ?? [];
    const ev = events.length ? `, ev as (${EVENTS_INSERT(events, (v) => `$${params.push(v)}`)} returning *)` : '';
    const x = await this.q(tx).query<Row>(
      `with s as (
         update memory_state set mention_count = mention_count + 1,
           last_mentioned_at = greatest(last_mentioned_at, $2), importance = $3, valence = $4,
           entities = $5::text[], themes = $6::text[], tags = $7::text[], updated_at = now()
         where memory_id = $1 returning *
       ), mn as (
         insert into mentions (id, memory_id, space_id, quote, conversation_id, message_id, said_at, tier, score)
         values ($8,$1,$9,$10,$11,$12,$13,$14,$15)
       ), lx as (
         -- The new wording is added to what the memory was already found by.
         update memory_lexicon set doc = doc || to_tsvector('simple', $16) where memory_id = $1
       )${ev}
       ${writtenRow(`from memories m join s on s.memory_id = m.id${unchangedSince(seen, '$9', (v) => `$${params.push(v)}`)}`, !!ev)}`,
      params,
    );
    return writtenRecord(x.rows[0]!, !!ev);
  }

  /**
   * Sets a status on many memories at once (one statement). Only rows of `spaceId`
   * whose status is one of `from` change; returns the ids that changed.
   */
  async setStatus(
    tx: Tx | undefined, spaceId: string, ids: readonly string[], status: MemoryStatus,
    opts: { from?: MemoryStatus[]; supersededBy?: string | null; correctedBy?: string | null; mergedInto?: string | null } = {},
  ): Promise<string[]> {
    const r = await this.q(tx).query<{ memory_id: string }>(
      `update memory_state set status = $3, status_changed_at = now(), updated_at = now(),
         superseded_by = case when $5::boolean then $6 else superseded_by end,
         corrected_by = case when $7::boolean then $8 else corrected_by end,
         merged_into = case when $9::boolean then $10 else merged_into end
       where memory_id = any($1::text[]) and space_id = $2 and ($4::text[] is null or status = any($4::text[]))
       returning memory_id`,
      [ids, spaceId, status, opts.from ?? null,
        opts.supersededBy !== undefined, opts.supersededBy ?? null,
        opts.correctedBy !== undefined, opts.correctedBy ?? null,
        opts.mergedInto !== undefined, opts.mergedInto ?? null],
    );
    return r.rows.map((x) => x.memory_id);
  }

  setStatusLogged(
    tx: Tx, spaceId: string, ids: readonly string[], status: MemoryStatus, from: MemoryStatus[], event: { kind: string; actor: string },
  ): Promise<{ changed: string[]; events: MemoryEvent[] }> {
    return setStatusLogged(this.q(tx), spaceId, ids, status, from, event);
  }

  async setReview(spaceId: string, id: string, review: 'ACCEPTED' | 'DISMISSED'): Promise<boolean> {
    const r = await this.db.query(
      `update memory_state set review = $3, updated_at = now() where memory_id = $1 and space_id = $2 and kind = 'INFERENCE'`,
      [id, spaceId, review],
    );
    return r.rowCount > 0;
  }

  async setEmbeddingStatus(tx: Tx, id: string, status: 'OK' | 'MISSING'): Promise<void> {
    await this.q(tx).query(`update memory_state set embedding_status = $2, updated_at = now() where memory_id = $1`, [id, status]);
  }

  /** Work issued after the caller's answer (the recall counters, a server's postings read): `settled` waits for it. */
  private readonly afterAnswers = new Set<Promise<void>>();

  /** Work after an answer: never thrown (logged), waited for by `settled`. */
  protected afterAnswer(work: Promise<void>): Promise<void> {
    const done = work.catch((e: unknown) => this.log?.warn({ err: e instanceof Error ? e.message : String(e) }, 'work after an answer failed'))
      .finally(() => this.afterAnswers.delete(done));
    this.afterAnswers.add(done);
    return done;
  }

  /**
   * Adds one to each memory's recall count, after the answer: counted now, written with the other
   * recalls' counts of the next RECALL_GATHER.delayMs in one statement (`GatheredCounts`), which is
   * not waited for (on PGlite statements run in the order issued; on a server it commits on a
   * connection of its own), unless AFTER_ANSWER_MAX writes are pending already, when the caller
   * waits for the one it joined (a slow database does not gather writes without end). A failure is
   * logged, never thrown: a recall count is not worth failing the answer that recalled.
   */
  async incrementRecall(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    const issued = this.recallCounts.add([...new Set(ids)]);
    // (the timer issues writes that nobody waits for: past the bound, this recall's counts go now, waited for)
    if (this.afterAnswers.size > AFTER_ANSWER_MAX) await (issued ?? this.recallCounts.flush());
  }

  private readonly recallCounts = new GatheredCounts(
    (ids, counts) => this.db.query(
      // Rows are locked in id order, so concurrent writes over overlapping memories queue instead of
      // deadlocking (a plain UPDATE ... from locks them in scan order); the client retries a victim anyway.
      // PGlite runs one statement at a time on one connection: nothing to deadlock with, a plain UPDATE.
      this.db.driver === 'pglite'
        ? `update memory_state s set recall_count = s.recall_count + x.n
           from unnest($1::text[], $2::int[]) as x(id, n) where s.memory_id = x.id`
        : `with x as (select * from unnest($1::text[], $2::int[]) as x(id, n)),
           locked as (select s.memory_id from memory_state s join x on x.id = s.memory_id order by s.memory_id for update of s)
           update memory_state s set recall_count = s.recall_count + x.n from locked l join x on x.id = l.memory_id
           where s.memory_id = l.memory_id`,
      [ids, counts],
    ).then(
      () => undefined,
      (e: unknown) => this.log?.warn({ err: e instanceof Error ? e.message : String(e), memories: ids.length }, 'recall counters not written'),
    ),
    (write) => this.afterAnswer(write),
    RECALL_GATHER,
  );

  /** Waits for the writes issued after their answers (`incrementRecall`): before the store closes, or a test reads them. */
  async settled(): Promise<void> {
    await this.recallCounts.flush();
    while (this.afterAnswers.size > 0) await Promise.all([...this.afterAnswers]);
  }

  async addEvents(tx: Tx | undefined, events: NewEvent[]): Promise<MemoryEvent[]> {
    if (events.length === 0) return [];
    const params: unknown[] = [];
    const r = await this.q(tx).query<Row>(`${EVENTS_INSERT(events, (v) => `$${params.push(v)}`)} returning *`, params);
    return r.rows.map(toEvent).sort((a, b) => a.id - b.id);
  }
}
