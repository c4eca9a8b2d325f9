import type {
  Conversation, LexicalHit, ListFilter, ListOrder, MemoryEvent, MemoryRecord, MemoryStore, Mention, Message,
  NewEvent, NewMemory, Reinforcement, Space, TokenRecord, Tx, ForgetRewrites,
} from '../ports/memory-store.js';
import type { AppliedMerge, MergeRequest, Resolution } from '../ports/memory-store.js';
import type { SweepItem } from '../core/cleanup-selection.js';
import { parseVector, toPgVectorText } from '../core/vectors.js';
import type { MemoryKind, MemoryStatus } from '../core/types.js';
import type { Queryable, SqlClient } from './sql-client.js';
import type { Logger } from '../ports/logger.js';
import { eraseResidue } from './erasure.js';
import { setStatusLogged } from './bulk-sql.js';

type Row = Record<string, any>;

const MEMORY_COLUMNS = `m.id, m.seq, m.space_id, m.kind, m.type, m.quote, m.normalized, m.conversation_id, m.message_id,
  m.context, m.basis, m.said_at, m.created_at, m.starts_at, m.ends_at, m.due_at, m.all_day,
  s.status, s.mention_count, s.recall_count, s.last_mentioned_at, s.importance, s.valence, s.entities, s.themes,
  s.tags, s.superseded_by, s.corrected_by, s.merged_into, s.embedding_status, s.review, s.resolution, s.resolved_at,
  s.status_changed_at`;

const FROM_MEMORY = `from memories m join memory_state s on s.memory_id = m.id`;

function date(v: unknown): Date {
  return v instanceof Date ? v : new Date(String(v));
}
function dateOrNull(v: unknown): Date | null {
  return v == null ? null : date(v);
}
function num(v: unknown): number | null {
  return v == null ? null : Number(v);
}
function arr(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v.startsWith('{')) {
    // Text form of a text[] when a driver does not parse arrays.
    return v.slice(1, -1).split(',').filter(Boolean).map((s) => s.replace(/^"|"$/g, ''));
  }
  return [];
}

export function toMemory(r: Row): MemoryRecord {
  return {
    id: r.id, seq: Number(r.seq), spaceId: r.space_id, kind: r.kind, type: r.type, quote: r.quote,
    normalized: r.normalized, conversationId: r.conversation_id ?? null, messageId: r.message_id ?? null,
    context: r.context ?? null, basis: r.basis ?? null, saidAt: date(r.said_at), createdAt: date(r.created_at),
    startsAt: dateOrNull(r.starts_at), endsAt: dateOrNull(r.ends_at), dueAt: dateOrNull(r.due_at), allDay: !!r.all_day,
    status: r.status, mentionCount: Number(r.mention_count), recallCount: Number(r.recall_count),
    lastMentionedAt: date(r.last_mentioned_at), importance: num(r.importance), valence: num(r.valence),
    entities: arr(r.entities), themes: arr(r.themes), tags: arr(r.tags), supersededBy: r.superseded_by ?? null,
    correctedBy: r.corrected_by ?? null, mergedInto: r.merged_into ?? null, embeddingStatus: r.embedding_status,
    review: r.review ?? null, resolution: r.resolution ?? null, resolvedAt: dateOrNull(r.resolved_at),
    statusChangedAt: dateOrNull(r.status_changed_at),
  };
}

function toMention(r: Row): Mention {
  return {
    id: r.id, memoryId: r.memory_id, quote: r.quote, conversationId: r.conversation_id ?? null,
    messageId: r.message_id ?? null, saidAt: date(r.said_at), tier: r.tier, score: num(r.score),
    createdAt: date(r.created_at),
  };
}

function toEvent(r: Row): MemoryEvent {
  return {
    id: Number(r.id), spaceId: r.space_id, memoryId: r.memory_id ?? null, kind: r.kind, actor: r.actor,
    tier: r.tier ?? null, score: num(r.score), rule: r.rule ?? null, relatedId: r.related_id ?? null,
    detail: typeof r.detail === 'string' ? JSON.parse(r.detail) : (r.detail ?? null), at: date(r.at),
  };
}

function toSpace(r: Row): Space {
  return { id: r.id, name: r.name, sealed: !!r.sealed, timeZone: r.time_zone, createdAt: date(r.created_at) };
}

function toMessage(r: Row): Message {
  return {
    id: r.id, conversationId: r.conversation_id, spaceId: r.space_id, role: r.role, text: r.text, at: date(r.at),
  };
}

/** `insert into memory_events …` of these events in order, their columns as parameters added through `p`. */
function EVENTS_INSERT(events: NewEvent[], p: (v: unknown) => string): string {
  return `insert into memory_events (space_id, memory_id, kind, actor, tier, score, rule, related_id, detail, at)
       select * from unnest(${p(events.map((e) => e.spaceId))}::text[], ${p(events.map((e) => e.memoryId))}::text[],
         ${p(events.map((e) => e.kind))}::text[], ${p(events.map((e) => e.actor))}::text[], ${p(events.map((e) => e.tier))}::text[],
         ${p(events.map((e) => e.score))}::real[], ${p(events.map((e) => e.rule))}::text[], ${p(events.map((e) => e.relatedId))}::text[],
         ${p(events.map((e) => (e.detail ? JSON.stringify(e.detail) : null)))}::jsonb[], ${p(events.map((e) => e.at ?? new Date()))}::timestamptz[])`;
}

/** The messages memories $1 of space $2 were said in (their own and their mentions'): what forget deletes. */
const MESSAGES_OF_MEMORIES = `select message_id from mentions where memory_id = any($1::text[]) and space_id = $2 and message_id is not null
  union select message_id from memories where id = any($1::text[]) and space_id = $2 and message_id is not null`;

/** Term frequencies from a tsvector's text form: `'grow':1,4 'duluth':2` -> {grow: 2, duluth: 1}. */
export function parseTsvector(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const m of text.matchAll(/'((?:[^']|'')+)'(?::([\d,A-D]+))?/g)) {
    const term = m[1].replace(/''/g, "'");
    out.set(term, m[2] ? m[2].split(',').length : 1);
  }
  return out;
}

/** Groups rows by a key, returning one list per requested key, in key order (DataLoader contract). */
function groupInOrder<T>(keys: readonly string[], items: T[], keyOf: (t: T) => string): T[][] {
  const by = new Map<string, T[]>();
  for (const it of items) {
    const k = keyOf(it);
    const list = by.get(k);
    if (list) list.push(it);
    else by.set(k, [it]);
  }
  return keys.map((k) => by.get(k) ?? []);
}

/**
 * The system of record over `SqlClient`. Methods that take `tx` run inside the
 * caller's transaction; the others run on their own.
 */
export class SqlStore implements MemoryStore {
  /**
   * `maintenance`: a client of the tables' owner (DATABASE_OWNER_URL) for what the service
   * role may not do (VACUUM FULL after a forget); the service's own client otherwise.
   */
  constructor(readonly db: SqlClient, private readonly maintenance: SqlClient = db, private readonly log?: Logger) {}

  /** One erasure at a time; a forget waits for its own. */
  private erasing: Promise<void> = Promise.resolve();

  eraseResidue(): Promise<void> {
    const run = this.erasing.then(async () => {
      await eraseResidue(this.maintenance, this.log);
    });
    this.erasing = run.catch(() => undefined);
    return run;
  }

  get statementCount(): number {
    return this.db.statementCount;
  }

  private q(tx?: Tx): Queryable {
    return (tx as Queryable | undefined) ?? this.db;
  }

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction((tx) => fn(tx));
  }

  /** A transaction holding the space's write lock: recognition and writes of one space never interleave. */
  withSpaceLock<T>(spaceId: string, fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.db.transaction(async (tx) => {
      await tx.query(`select pg_advisory_xact_lock(hashtext($1))`, [`space:${spaceId}`]);
      return fn(tx);
    });
  }

  // ---- spaces -------------------------------------------------------------

  async createSpace(s: { id: string; name: string; sealed: boolean; timeZone: string }, tx?: Tx): Promise<Space> {
    const r = await this.q(tx).query<Row>(
      `insert into spaces (id, name, sealed, time_zone) values ($1, $2, $3, $4) returning *`,
      [s.id, s.name, s.sealed, s.timeZone],
    );
    return toSpace(r.rows[0]);
  }

  async getSpaces(ids: readonly string[]): Promise<(Space | null)[]> {
    const r = await this.db.query<Row>(`select * from spaces where id = any($1::text[])`, [ids]);
    const by = new Map(r.rows.map((x) => [x.id as string, toSpace(x)]));
    return ids.map((id) => by.get(id) ?? null);
  }

  async listSpaces(): Promise<Space[]> {
    return (await this.db.query<Row>(`select * from spaces order by created_at, id`)).rows.map(toSpace);
  }

  async setSpaceTimeZone(id: string, timeZone: string): Promise<void> {
    await this.db.query(`update spaces set time_zone = $2 where id = $1`, [id, timeZone]);
  }

  /** Drops a sealed space with everything in it, through the database's function (it refuses a person's space). */
  async dropSpace(id: string, tx: Tx): Promise<void> {
    await this.q(tx).query(`select engram_drop_sealed_space($1)`, [id]);
  }

  async countMemories(spaceId: string, kind: MemoryKind | null = null): Promise<number> {
    const r = await this.db.query<{ n: number }>(
      `select count(*)::int as n from memories where space_id = $1 and ($2::text is null or kind = $2)`,
      [spaceId, kind],
    );
    return Number(r.rows[0].n);
  }

  async countByStatus(spaceId: string, kind: MemoryKind): Promise<Record<string, number>> {
    const r = await this.db.query<Row>(
      `select status, count(*)::int as n from memory_state where space_id = $1 and kind = $2 group by status`,
      [spaceId, kind],
    );
    return Object.fromEntries(r.rows.map((x) => [x.status, Number(x.n)]));
  }

  // ---- tokens ---------------------------------------------------------------

  async insertToken(t: { id: string; hash: string; role: string; spaceId: string | null; label: string | null }): Promise<void> {
    await this.db.query(
      `insert into tokens (id, hash, role, space_id, label) values ($1, $2, $3, $4, $5)`,
      [t.id, t.hash, t.role, t.spaceId, t.label],
    );
  }

  async findToken(hash: string): Promise<TokenRecord | null> {
    const r = await this.db.query<Row>(`select * from tokens where hash = $1 and revoked_at is null`, [hash]);
    const x = r.rows[0];
    return x ? { id: x.id, role: x.role, spaceId: x.space_id ?? null, label: x.label ?? null } : null;
  }

  async isRevokedToken(hash: string): Promise<boolean> {
    return (await this.db.query(`select 1 from tokens where hash = $1 and revoked_at is not null`, [hash])).rows.length > 0;
  }

  async countTokens(): Promise<number> {
    return Number((await this.db.query<{ n: number }>(`select count(*)::int as n from tokens where revoked_at is null`)).rows[0].n);
  }

  async revokeToken(id: string): Promise<boolean> {
    return (await this.db.query(`update tokens set revoked_at = now() where id = $1 and revoked_at is null`, [id])).rowCount > 0;
  }

  // ---- conversations and messages ------------------------------------------

  async createConversation(c: { id: string; spaceId: string }): Promise<Conversation> {
    const r = await this.db.query<Row>(
      `insert into conversations (id, space_id) values ($1, $2) returning *`,
      [c.id, c.spaceId],
    );
    const x = r.rows[0];
    return { id: x.id, spaceId: x.space_id, createdAt: date(x.created_at) };
  }

  async getConversations(ids: readonly string[]): Promise<(Conversation | null)[]> {
    const r = await this.db.query<Row>(`select * from conversations where id = any($1::text[])`, [ids]);
    const by = new Map(r.rows.map((x) => [x.id as string, { id: x.id, spaceId: x.space_id, createdAt: date(x.created_at) }]));
    return ids.map((id) => by.get(id) ?? null);
  }

  async addMessage(m: Message): Promise<Message> {
    const r = await this.db.query<Row>(
      `insert into messages (id, conversation_id, space_id, role, text, at) values ($1, $2, $3, $4, $5, $6) returning *`,
      [m.id, m.conversationId, m.spaceId, m.role, m.text, m.at],
    );
    return toMessage(r.rows[0]);
  }

  async listMessages(conversationId: string, tx?: Tx): Promise<Message[]> {
    const r = await this.q(tx).query<Row>(
      `select * from messages where conversation_id = $1 order by seq`,
      [conversationId],
    );
    return r.rows.map(toMessage);
  }

  async messagesByConversation(ids: readonly string[]): Promise<Message[][]> {
    const r = await this.db.query<Row>(
      `select * from messages where conversation_id = any($1::text[]) order by seq`,
      [ids],
    );
    return groupInOrder(ids, r.rows.map(toMessage), (m) => m.conversationId);
  }

  // ---- memories -------------------------------------------------------------

  /**
   * One statement writes the memory, its state, its original mention and its lexicon
   * entry (data-modifying CTEs; foreign keys are checked at the statement's end), and
   * returns the record as written, so the caller need not read it back.
   */
  async insertMemory(tx: Tx, m: NewMemory): Promise<MemoryRecord & { events?: MemoryEvent[] }> {
    const params: unknown[] = [m.id, m.spaceId, m.kind, m.type, m.quote, m.normalized, m.conversationId, m.messageId, m.context, m.basis,
      m.saidAt, m.startsAt ?? null, m.endsAt ?? null, m.dueAt ?? null, m.allDay ?? false,
      m.importance, m.valence, m.entities, m.themes, m.tags, m.embeddingStatus, m.review, m.lexicalText];
    const p = (v: unknown) => `$${params.push(v)}`;
    // The vector row as VectorIndex.upsert writes it (a new memory: nothing to conflict with).
    const vx = m.vector
      ? `, vx as (insert into memory_vectors (memory_id, space_id, kind, embedder, embedding)
           values ($1, $2, $3, ${p(m.vector.embedder)}, ${p(toPgVectorText(m.vector.vector))}::vector))`
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
       select ${MEMORY_COLUMNS}${ev ? `, (select json_agg(e order by e.id) from ev e) as events` : ''} from m join s on s.memory_id = m.id`,
      params,
    );
    const row = r.rows[0];
    const memory: MemoryRecord & { events?: MemoryEvent[] } = toMemory(row);
    if (ev) memory.events = ((typeof row.events === 'string' ? JSON.parse(row.events) : row.events) as Row[]).map(toEvent);
    return memory;
  }

  /** The system-of-record copy of a vector (every engine can be rebuilt from it). */
  async putVector(tx: Tx, v: { memoryId: string; spaceId: string; kind: MemoryKind; embedder: string; vector: Float32Array }): Promise<void> {
    await this.q(tx).query(
      `insert into memory_vectors (memory_id, space_id, kind, embedder, embedding) values ($1, $2, $3, $4, $5::vector)
       on conflict (memory_id) do update set embedding = excluded.embedding, embedder = excluded.embedder`,
      [v.memoryId, v.spaceId, v.kind, v.embedder, toPgVectorText(v.vector)],
    );
  }

  async getVectors(ids: readonly string[], tx?: Tx): Promise<Map<string, Float32Array>> {
    const r = await this.q(tx).query<Row>(
      `select memory_id, embedding::text as embedding from memory_vectors where memory_id = any($1::text[])`,
      [ids],
    );
    return new Map(r.rows.map((x) => [x.memory_id as string, parseVector(x.embedding)]));
  }

  /** Active statements said in one message (a next-sentence correction looks here). */
  async activeOfMessage(tx: Tx, spaceId: string, messageId: string): Promise<MemoryRecord[]> {
    const r = await this.q(tx).query<Row>(
      `select ${MEMORY_COLUMNS} ${FROM_MEMORY}
       where m.space_id = $1 and m.message_id = $2 and m.kind = 'STATEMENT' and s.status = 'ACTIVE' order by m.seq`,
      [spaceId, messageId],
    );
    return r.rows.map(toMemory);
  }

  /** Active memories of a space and kind whose normalised text is exactly `normalized`. */
  async findActiveByNormalized(tx: Tx, spaceId: string, kind: MemoryKind, normalized: string): Promise<MemoryRecord[]> {
    const r = await this.q(tx).query<Row>(
      `select ${MEMORY_COLUMNS} ${FROM_MEMORY}
       where m.space_id = $1 and md5(m.normalized) = md5($3) and m.normalized = $3 and m.kind = $2 and s.status = 'ACTIVE'
       order by m.seq`,
      [spaceId, kind, normalized],
    );
    return r.rows.map(toMemory);
  }

  /** Memories by id, in key order; `spaceId` walls the lookup (another space's id reads as missing). */
  async getMemories(ids: readonly string[], spaceId: string | null = null, tx?: Tx): Promise<(MemoryRecord | null)[]> {
    if (ids.length === 0) return [];
    const r = await this.q(tx).query<Row>(
      `select ${MEMORY_COLUMNS} ${FROM_MEMORY} where m.id = any($1::text[]) and ($2::text is null or m.space_id = $2)`,
      [ids, spaceId],
    );
    const by = new Map(r.rows.map((x) => [x.id as string, toMemory(x)]));
    return ids.map((id) => by.get(id) ?? null);
  }

  /** One statement: the counters and lists, the new mention, the new wording in the lexicon; returns the record as updated. */
  async reinforce(tx: Tx, r: Reinforcement, spaceId: string): Promise<MemoryRecord> {
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
       )
       select ${MEMORY_COLUMNS} from memories m join s on s.memory_id = m.id`,
      [r.memoryId, r.lastMentionedAt, r.importance, r.valence, r.entities, r.themes, r.tags,
        r.mention.id, spaceId, r.mention.quote, r.mention.conversationId, r.mention.messageId,
        r.mention.saidAt, r.mention.tier, r.mention.score, r.lexicalText],
    );
    return toMemory(x.rows[0]);
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

  async missingEmbeddings(spaceId: string | null, limit: number): Promise<MemoryRecord[]> {
    const r = await this.db.query<Row>(
      `select ${MEMORY_COLUMNS} ${FROM_MEMORY} where s.embedding_status = 'MISSING' and ($1::text is null or m.space_id = $1)
       order by m.seq limit $2`,
      [spaceId, limit],
    );
    return r.rows.map(toMemory);
  }

  async incrementRecall(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    // Rows are locked in id order, so concurrent recalls over overlapping memories queue instead of
    // deadlocking (a plain UPDATE ... = any() locks them in scan order); the client retries a victim anyway.
    await this.db.query(
      `with locked as (select memory_id from memory_state where memory_id = any($1::text[]) order by memory_id for update)
       update memory_state s set recall_count = s.recall_count + 1 from locked where s.memory_id = locked.memory_id`,
      [[...new Set(ids)]],
    );
  }

  async listMemories(
    spaceId: string, filter: ListFilter, order: ListOrder, first: number, offset: number,
  ): Promise<{ items: MemoryRecord[]; hasNext: boolean }> {
    const orderSql =
      order === 'STRENGTH' ? `s.mention_count desc, s.last_mentioned_at desc, m.seq desc`
        : order === 'RECENT' ? `s.last_mentioned_at desc, m.seq desc`
          : `m.seq asc`;
    const r = await this.db.query<Row>(
      `select ${MEMORY_COLUMNS} ${FROM_MEMORY}
       where m.space_id = $1 and ($2::text is null or m.kind = $2)
         and ($3::text[] is null or s.status = any($3::text[])) and ($4::text[] is null or m.type = any($4::text[]))
       order by ${orderSql} limit $5 offset $6`,
      [spaceId, filter.kind ?? null, filter.statuses ?? null, filter.types ?? null, first + 1, offset],
    );
    const items = r.rows.map(toMemory);
    return { items: items.slice(0, first), hasNext: items.length > first };
  }

  /** Memories that another memory points at through supersededBy / correctedBy, per target id in key order. */
  async predecessors(ids: readonly string[]): Promise<MemoryRecord[][]> {
    const r = await this.db.query<Row>(
      `select ${MEMORY_COLUMNS} ${FROM_MEMORY} where s.superseded_by = any($1::text[]) or s.corrected_by = any($1::text[])
       order by m.said_at, m.seq`,
      [ids],
    );
    const items = r.rows.map(toMemory);
    return ids.map((id) => items.filter((m) => m.supersededBy === id || m.correctedBy === id));
  }

  /**
   * The whole correction chain of each memory (every memory linked to it through
   * supersededBy / correctedBy, in either direction), oldest first, one query per batch.
   */
  async chains(ids: readonly string[]): Promise<MemoryRecord[][]> {
    const r = await this.db.query<Row>(
      `with recursive links(a, b) as (
         select memory_id, coalesce(superseded_by, corrected_by) from memory_state
         where coalesce(superseded_by, corrected_by) is not null
       ), walk(root, id) as (
         select x, x from unnest($1::text[]) as x
         union
         select w.root, case when l.a = w.id then l.b else l.a end
         from walk w join links l on l.a = w.id or l.b = w.id
       )
       select w.root as chain_root, ${MEMORY_COLUMNS} from walk w join memories m on m.id = w.id
         join memory_state s on s.memory_id = m.id
       order by m.said_at, m.seq`,
      [ids],
    );
    return groupInOrder(ids, r.rows, (x) => x.chain_root as string).map((rows) => rows.map(toMemory));
  }

  /**
   * Every wording of each memory, oldest first, including the wordings of memories
   * merged into it by consolidation (mention rows never move: content is append-only).
   */
  /**
   * The newest memory of each id's correction chain, following supersededBy /
   * correctedBy forward (itself when nothing replaced it), in key order.
   */
  async currentVersions(ids: readonly string[]): Promise<(MemoryRecord | null)[]> {
    if (ids.length === 0) return [];
    const r = await this.db.query<Row>(
      `with recursive fwd(root, id, depth) as (
         select x, x, 0 from unnest($1::text[]) as x
         union all
         select f.root, coalesce(s.superseded_by, s.corrected_by), f.depth + 1
         from fwd f join memory_state s on s.memory_id = f.id
         where coalesce(s.superseded_by, s.corrected_by) is not null and f.depth < 100
       ), last as (
         select distinct on (root) root, id from fwd order by root, depth desc
       )
       select last.root as chain_root, ${MEMORY_COLUMNS} from last join memories m on m.id = last.id
         join memory_state s on s.memory_id = m.id`,
      [ids],
    );
    const by = new Map(r.rows.map((x) => [x.chain_root as string, toMemory(x)]));
    return ids.map((id) => by.get(id) ?? null);
  }

  async mentionsOf(memoryIds: readonly string[], tx?: Tx): Promise<Mention[][]> {
    const r = await this.q(tx).query<Row>(
      `with recursive tree(root, id) as (
         select x, x from unnest($1::text[]) as x
         union
         select t.root, s.memory_id from tree t join memory_state s on s.merged_into = t.id and s.status = 'MERGED'
       )
       select t.root as for_id, mn.* from tree t join mentions mn on mn.memory_id = t.id order by mn.seq`,
      [memoryIds],
    );
    return groupInOrder(memoryIds, r.rows, (x) => x.for_id as string).map((rows) => rows.map(toMention));
  }

  async eventsOf(memoryIds: readonly string[]): Promise<MemoryEvent[][]> {
    const r = await this.db.query<Row>(`select * from memory_events where memory_id = any($1::text[]) order by id`, [memoryIds]);
    return groupInOrder(memoryIds, r.rows.map(toEvent), (e) => e.memoryId ?? '');
  }

  async spaceEvents(spaceId: string, afterId: number, limit: number): Promise<MemoryEvent[]> {
    const r = await this.db.query<Row>(
      `select * from memory_events where space_id = $1 and id > $2 order by id limit $3`,
      [spaceId, afterId, limit],
    );
    return r.rows.map(toEvent);
  }

  async addEvents(tx: Tx | undefined, events: NewEvent[]): Promise<MemoryEvent[]> {
    if (events.length === 0) return [];
    const params: unknown[] = [];
    const r = await this.q(tx).query<Row>(`${EVENTS_INSERT(events, (v) => `$${params.push(v)}`)} returning *`, params);
    return r.rows.map(toEvent).sort((a, b) => a.id - b.id);
  }

  /**
   * Lexical candidates ranked by BM25 over the space's lexicon (word keys of every
   * wording, the source message, entities and themes), computed in SQL from the
   * postings table the lexicon's triggers maintain (migration 4), identically on
   * PGlite and a server.
   */
  async lexicalSearch(spaceId: string, keys: string[], k: number, kind: MemoryKind, statuses: MemoryStatus[]): Promise<LexicalHit[]> {
    const terms = [...new Set(keys.filter((t) => /^[\p{L}\p{N}]+$/u.test(t)))];
    if (terms.length === 0 || k <= 0) return [];
    // Okapi BM25 (k1 1.2, b 0.75) from the postings (migration 4): N and the average
    // length are the (space, kind) totals over every status, df an index-only count per
    // term; the score is one aggregate over the query terms' postings (index range scans
    // on (space, kind, term)). Statuses are filtered after scoring (they change, postings
    // do not): over-fetch, and rank again with the filter inside in the rare case it
    // leaves fewer than k.
    const stats = await this.db.query<Row>(
      `select (select docs from lexicon_stats where space_id = $1 and kind = $2) as docs,
              (select total_len from lexicon_stats where space_id = $1 and kind = $2) as total_len,
              t.term, (select count(*) from memory_terms p where p.space_id = $1 and p.kind = $2 and p.term = t.term) as df
       from unnest($3::text[]) as t(term)`,
      [spaceId, kind, terms],
    );
    const n = Number(stats.rows[0]?.docs ?? 0);
    if (n === 0) return [];
    const avgdl = Math.max(1, Number(stats.rows[0].total_len) / n);
    const found = stats.rows.filter((x) => Number(x.df) > 0);
    if (found.length === 0) return [];
    const idf = found.map((x) => Math.log(1 + (n - Number(x.df) + 0.5) / (Number(x.df) + 0.5)));
    const scoredSql = (filtered: boolean) => `with top as (
         select p.memory_id, sum(w.idf * p.tf * 2.2::float8 / (p.tf + 1.2::float8 * (0.25::float8 + 0.75::float8 * p.len / $5::float8))) as score
         from memory_terms p join unnest($3::text[], $4::float8[]) as w(term, idf) on w.term = p.term
         ${filtered ? 'join memory_state s on s.memory_id = p.memory_id and s.status = any($7::text[])' : ''}
         where p.space_id = $1 and p.kind = $2 and p.term = any($3::text[])
         group by p.memory_id
         order by score desc, p.memory_id limit $6
       ), hits as (
         select top.memory_id, top.score, row_number() over (order by top.score desc, top.memory_id) as rn
         from top join memory_state s on s.memory_id = top.memory_id and s.status = any($7::text[])
       )
       select memory_id, score, rn, null::bigint as n from hits where rn <= $8
       union all select null, null, 0, count(*) from top`;
    const args = [spaceId, kind, found.map((x) => x.term as string), idf, avgdl];
    const limit = Math.max(k * 10, 500);
    // Statuses are checked on the best `limit` rows only, in SQL: only the first k that pass come back,
    // with the number of rows scored (a last row without an id).
    const scored = async (filtered: boolean, window: number) => {
      const r = await this.db.query<Row>(scoredSql(filtered), [...args, window, statuses, k]);
      const all = r.rows.filter((x) => x.memory_id != null).sort((a, b) => Number(a.rn) - Number(b.rn));
      return { rows: all, n: Number(r.rows.find((x) => x.memory_id == null)?.n ?? 0) };
    };
    const first = await scored(false, limit);
    let rows = first.rows;
    if (rows.length < k && first.n === limit) rows = (await scored(true, k)).rows;
    return rows.slice(0, k).map((x) => ({ memoryId: x.memory_id as string, rank: Number(x.score) }));
  }

  /** Which of these word keys some memory of the space and kind (with one of the statuses) holds: one query, an index probe per key. */
  async heardTerms(spaceId: string, kind: MemoryKind, keys: readonly string[], statuses: MemoryStatus[]): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const r = await this.db.query<{ term: string }>(
      `select t.term from unnest($3::text[]) as t(term)
       where exists (select 1 from memory_terms p join memory_state s on s.memory_id = p.memory_id
                     where p.space_id = $1 and p.kind = $2 and p.term = t.term and s.status = any($4::text[]))`,
      [spaceId, kind, [...new Set(keys)], statuses],
    );
    return new Set(r.rows.map((x) => x.term));
  }

  /**
   * What else a forget touches (before it runs): surviving memories said in a message
   * that goes (their context quotes it), with the wordings being forgotten from those
   * messages; and surviving memories said in the message right after one that goes
   * (their lexicon holds it as the preceding message).
   */
  async forgetNeighbours(tx: Tx, spaceId: string, ids: readonly string[]): Promise<{
    siblings: { id: string; quote: string; context: string; forgotten: string[] }[]; followers: string[];
  }> {
    const q = this.q(tx);
    const sib = await q.query<Row>(
      `select m.id, m.quote, m.context,
         array(select x.quote from mentions x where x.message_id = m.message_id and x.memory_id = any($1::text[])) as forgotten
       from memories m
       where m.space_id = $2 and m.message_id in (${MESSAGES_OF_MEMORIES}) and not (m.id = any($1::text[])) and m.context is not null`,
      [ids, spaceId],
    );
    const fol = await q.query<{ memory_id: string }>(
      `select distinct x.memory_id from mentions x
       where x.space_id = $2 and not (x.memory_id = any($1::text[])) and x.message_id in (
         select (select n.id from messages n where n.conversation_id = g.conversation_id and n.seq > g.seq order by n.seq limit 1)
         from messages g where g.id in (${MESSAGES_OF_MEMORIES}))`,
      [ids, spaceId],
    );
    return {
      siblings: sib.rows.map((x) => ({ id: x.id, quote: x.quote, context: x.context, forgotten: (x.forgotten ?? []) as string[] })),
      followers: fol.rows.map((x) => x.memory_id),
    };
  }

  /** The messages memories `ids` were said in, with the wordings of those memories said there (what a forget redacts). */
  async forgottenMessages(tx: Tx, spaceId: string, ids: readonly string[]): Promise<{ id: string; text: string; forgotten: string[] }[]> {
    const r = await this.q(tx).query<Row>(
      `select g.id, g.text, array(select x.quote from mentions x where x.message_id = g.id and x.memory_id = any($1::text[])) as forgotten
       from messages g where g.space_id = $2 and g.id in (${MESSAGES_OF_MEMORIES})`,
      [ids, spaceId],
    );
    return r.rows.map((x) => ({ id: x.id, text: x.text, forgotten: arr(x.forgotten) }));
  }

  /**
   * Forget for good, through the database's SECURITY DEFINER function (migration 5):
   * removes the memories (their mentions, state, vectors and lexicon rows go with them),
   * rewrites the messages they were said in (forgotten sentences redacted; a message
   * with nothing else is deleted) and the contexts of memories said in those messages.
   * The function refuses any rewrite that adds a word. Only this path deletes content.
   */
  async forget(tx: Tx, spaceId: string, ids: readonly string[], rewrites: ForgetRewrites = { messages: [], contexts: [] }): Promise<string[]> {
    const r = await this.q(tx).query<{ id: string }>(
      `select engram_forget($1, $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) as id`,
      [spaceId, ids, rewrites.messages.map((m) => m.id), rewrites.messages.map((m) => m.text),
        rewrites.contexts.map((c) => c.id), rewrites.contexts.map((c) => c.context)],
    );
    return r.rows.map((x) => x.id);
  }

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
