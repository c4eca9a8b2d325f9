import type { Conversation, ConversationTranscript, KeptWording, ListFilter, ListOrder, MemoryEvent, Message, MemoryHead, MemoryRecord, Mention, Tx } from '../ports/memory-store.js';
import type { MemoryKind } from '../core/types.js';
import { parseVector } from '../core/vectors.js';
import { FROM_MEMORY, HEAD_COLUMNS, HEAD_COLUMN_NAMES, MEMORY_COLUMNS, MEMORY_COLUMN_NAMES, date, fromJsonRows, groupInOrder, jsonRows, toEvent, toMemory, toMemoryHead, toMention, toMessage, type Row } from './sql-rows.js';
import { SqlMemoryWrites } from './sql-memory-writes.js';
import { GENERIC_PLAN } from './sql-client.js';

/** What `currentVersions` reads: the chain's root, then the memory. */
const CURRENT_NAMES = ['chain_root', ...HEAD_COLUMN_NAMES];
/**
 * The space's last event id (null: none yet, read as 0), parameter `space`: what recognition
 * reads before it begins and the lock's check compares. Migration 16's `engram_unchanged_since`
 * computes the same, in SQL, for PGlite's unlocked writes.
 */
const lastEventOf = (space: string) => `(select max(id) from memory_events where space_id = ${space})`;
/** Each memory of `$1` (`root`) with itself and every memory merged into it, however deep (`id`): whose wordings are its own. */
const MERGE_TREE = `with recursive tree(root, id) as (
         select x, x from unnest($1::text[]) as x
         union
         select t.root, s.memory_id from tree t join memory_state s on s.merged_into = t.id and s.status = 'MERGED'
       )`;
/** The columns of a message `toMessage` reads. */
const MESSAGE_NAMES = ['id', 'conversation_id', 'space_id', 'role', 'text', 'at'];

/** A list's filter and order (`listMemories`, `listMemorySizes`): $1 space, $2 kind, $3 statuses, $4 types, $5 limit, $6 offset. */
function listWhere(order: ListOrder): string {
  const orderSql =
    order === 'STRENGTH' ? `s.mention_count desc, s.last_mentioned_at desc, m.seq desc`
      : order === 'RECENT' ? `s.last_mentioned_at desc, m.seq desc`
        : `m.seq asc`;
  return `where m.space_id = $1 and ($2::text is null or m.kind = $2)
         and ($3::text[] is null or s.status = any($3::text[])) and ($4::text[] is null or m.type = any($4::text[]))
       order by ${orderSql} limit $5 offset $6`;
}

/**
 * The wording a sentence of one message was kept as in a space (`keptWording`), as one JSON text
 * `[memory id, tier, score]`, whatever its memory's status: by the mentions' message index
 * (migration 28). Its parameters name the space, the message (null: none) and the quote.
 */
const KEPT_WORDING = (space: string, message: string, quote: string) =>
  `(select json_build_array(mn.memory_id, mn.tier, mn.score)::text from mentions mn
    where ${message}::text is not null and mn.message_id = ${message} and mn.quote = ${quote} and mn.space_id = ${space} order by mn.seq limit 1)`;

const keptOf = (json: unknown): KeptWording | null => {
  if (!json) return null;
  const [memoryId, tier, score] = JSON.parse(String(json)) as [string, KeptWording['tier'], number | null];
  return { memoryId, tier, score };
};

/** The SqlStore's reads of memories: by id, by text, lists, correction chains, mentions, events. */
export class SqlMemoryReads extends SqlMemoryWrites {
  async getVectors(ids: readonly string[], tx?: Tx): Promise<Map<string, Float32Array>> {
    const r = await this.q(tx).query<Row>(
      `select memory_id, embedding::text as embedding from memory_vectors where memory_id = any($1::text[])`,
      [ids],
    );
    return new Map(r.rows.map((x) => [x.memory_id as string, parseVector(x.embedding)]));
  }

  /** Active statements said in one message (a next-sentence correction looks here). */
  async activeOfMessage(tx: Tx, spaceId: string, messageId: string): Promise<MemoryHead[]> {
    const r = await this.q(tx).query<Row>(
      `select ${HEAD_COLUMNS} ${FROM_MEMORY}
       where m.space_id = $1 and m.message_id = $2 and m.kind = 'STATEMENT' and s.status = 'ACTIVE' order by m.seq`,
      [spaceId, messageId],
    );
    return r.rows.map(toMemoryHead);
  }

  async messageOrder(tx: Tx | undefined, ids: readonly string[]): Promise<Map<string, number>> {
    const r = await this.q(tx).query<{ id: string; seq: string | number }>(`select id, seq from messages where id = any($1::text[])`, [ids]);
    return new Map(r.rows.map((x) => [x.id, Number(x.seq)]));
  }

  async keptWording(tx: Tx | undefined, spaceId: string, messageId: string, quote: string): Promise<KeptWording | null> {
    const r = await this.q(tx).query<Row>(`select ${KEPT_WORDING('$1', '$2', '$3')} as kept`, [spaceId, messageId, quote]);
    return keptOf(r.rows[0]?.kept);
  }

  /** Active memories of a space and kind whose normalised text is exactly `normalized`. */
  async findActiveByNormalized(tx: Tx, spaceId: string, kind: MemoryKind, normalized: string): Promise<MemoryHead[]> {
    const r = await this.q(tx).query<Row>(
      `select ${HEAD_COLUMNS} ${FROM_MEMORY}
       where m.space_id = $1 and md5(m.normalized) = md5($3) and m.normalized = $3 and m.kind = $2 and s.status = 'ACTIVE'
       order by m.seq`,
      [spaceId, kind, normalized],
    );
    return r.rows.map(toMemoryHead);
  }

  async recognitionStart(spaceId: string, kind: MemoryKind, normalized: string, retryOf?: { messageId: string; quote: string }): Promise<{
    exact: MemoryHead[]; kept?: KeptWording | null;
  }> {
    // The matches as one JSON text (jsonRows): PGlite's driver would parse 35 columns of a row even when all are null.
    // The wording already kept from the same sentence of the same message (a retry), by the mentions' message index (migration 28).
    const r = await this.db.query<Row>(
      `select (select ${jsonRows('x', HEAD_COLUMN_NAMES, 'x.seq')} from (
           select ${HEAD_COLUMNS} ${FROM_MEMORY}
           where m.space_id = $1 and md5(m.normalized) = md5($3) and m.normalized = $3 and m.kind = $2 and s.status = 'ACTIVE'
         ) x) as rows,
         ${KEPT_WORDING('$1', '$4', '$5')} as kept`,
      [spaceId, kind, normalized, retryOf?.messageId ?? null, retryOf?.quote ?? null],
    );
    return { exact: fromJsonRows(r.rows[0]?.rows, HEAD_COLUMN_NAMES).map(toMemoryHead), kept: keptOf(r.rows[0]?.kept) };
  }

  async conversationTranscript(conversationId: string, last: number, bytes: number): Promise<ConversationTranscript | null> {
    // The messages as one JSON text (jsonRows): 0.40 -> 0.25 ms for 20 messages in PGlite. The last
    // messages only (an index range scan on (conversation_id, seq), backwards), whether any came
    // before them, and whether one of those is dated after the oldest of them (a range of
    // messages_conversation_at, migration 15: never a scan of the conversation). Of the last, only as
    // many as fit in `bytes`, the latest always: `octet_length` reads a stored text's size
    // from its header, not the text, so the ones left out are never read (64 messages of 100,000
    // characters read in this one statement held PGlite's thread 0.24 s).
    const r = await this.db.query<Row>(
      `with lastn as (select * from messages where conversation_id = $1 order by seq desc limit $2),
       tail as (select * from (select *, sum(octet_length(text)) over (order by seq desc) - octet_length(text) as before from lastn) w
                where w.before < $3::bigint)
       select c.id as c_id, c.space_id as c_space_id, c.created_at as c_created_at, ${lastEventOf('c.space_id')} as last_event_id,
         (select ${jsonRows('x', MESSAGE_NAMES, 'x.seq')} from tail x) as rows,
         exists (select 1 from messages o where o.conversation_id = c.id and o.seq < (select min(seq) from tail)) as earlier_any,
         exists (select 1 from messages o where o.conversation_id = c.id and o.at > (select min(at) from tail)
                 and o.seq < (select min(seq) from tail)) as earlier_later
       from conversations c where c.id = $1`,
      [conversationId, last, bytes]);
    const c = r.rows[0];
    if (!c) return null;
    return {
      conversation: { id: c.c_id, spaceId: c.c_space_id, createdAt: date(c.c_created_at) },
      messages: fromJsonRows(c.rows, MESSAGE_NAMES).map(toMessage),
      lastEventId: Number(c.last_event_id ?? 0),
      earlier: { any: c.earlier_any === true, datedLater: c.earlier_later === true },
    };
  }

  /** Memories by id, in key order; `spaceId` walls the lookup (another space's id reads as missing). */
  getMemories(ids: readonly string[], spaceId: string | null = null, tx?: Tx): Promise<(MemoryRecord | null)[]> {
    return this.memoriesById(ids, spaceId, tx, MEMORY_COLUMNS, MEMORY_COLUMN_NAMES, toMemory);
  }

  getMemoryHeads(ids: readonly string[], spaceId: string | null = null, tx?: Tx): Promise<(MemoryHead | null)[]> {
    return this.memoriesById(ids, spaceId, tx, HEAD_COLUMNS, HEAD_COLUMN_NAMES, toMemoryHead);
  }

  private async memoriesById<T extends MemoryHead>(
    ids: readonly string[], spaceId: string | null, tx: Tx | undefined, columns: string, names: readonly string[], to: (r: Row) => T,
  ): Promise<(T | null)[]> {
    if (ids.length === 0) return [];
    // One JSON text (jsonRows), not rows of 35 columns for the driver to parse: 0.50 -> 0.28 ms for 10 ids in PGlite.
    const r = await this.q(tx).query<Row>(
      `${GENERIC_PLAN}select ${jsonRows('x', names)} as rows from (
         select ${columns} ${FROM_MEMORY} where m.id = any($1::text[]) and ($2::text is null or m.space_id = $2)) x`,
      [ids, spaceId],
    );
    const by = new Map(fromJsonRows(r.rows[0]?.rows, names).map((x) => [x.id as string, to(x)]));
    return ids.map((id) => by.get(id) ?? null);
  }

  async memoryTexts(ids: readonly string[], maxBytes: number): Promise<({ context: string | null; basis: string | null } | null | undefined)[]> {
    if (ids.length === 0) return [];
    // The running sum reads each value's size from its header (octet_length does not detoast):
    // the texts past the budget are never read.
    const r = await this.db.query<{ n: number; found: boolean; within: boolean; context: string | null; basis: string | null }>(
      `select n, found, upto <= $2 as within, case when upto <= $2 then context end as context, case when upto <= $2 then basis end as basis from (
         select u.n, m.id is not null as found, m.context, m.basis,
           sum(coalesce(octet_length(m.context), 0) + coalesce(octet_length(m.basis), 0)) over (order by u.n) as upto
         from unnest($1::text[]) with ordinality as u(id, n) left join memories m on m.id = u.id
       ) x order by n`,
      [ids, maxBytes],
    );
    return r.rows.map((x) => (!x.found ? null : x.within ? { context: x.context ?? null, basis: x.basis ?? null } : undefined));
  }

  async missingEmbeddings(spaceId: string | null, limit: number): Promise<MemoryRecord[]> {
    const r = await this.db.query<Row>(
      `select ${MEMORY_COLUMNS} ${FROM_MEMORY} where s.embedding_status = 'MISSING' and ($1::text is null or m.space_id = $1)
       order by m.seq limit $2`,
      [spaceId, limit],
    );
    return r.rows.map(toMemory);
  }

  async listMemories(
    spaceId: string, filter: ListFilter, order: ListOrder, first: number, offset: number,
  ): Promise<{ items: MemoryRecord[]; hasNext: boolean }> {
    const r = await this.db.query<Row>(
      `select ${MEMORY_COLUMNS} ${FROM_MEMORY} ${listWhere(order)}`,
      [spaceId, filter.kind ?? null, filter.statuses ?? null, filter.types ?? null, first + 1, offset],
    );
    const items = r.rows.map(toMemory);
    return { items: items.slice(0, first), hasNext: items.length > first };
  }

  /**
   * `listMemories`' page as ids, each with the bytes of its texts (quote, normalized, context,
   * basis: sizes from the values' headers, nothing read): a caller weighs a page before it reads it.
   */
  async listMemorySizes(
    spaceId: string, filter: ListFilter, order: ListOrder, first: number, offset: number,
  ): Promise<{ items: { id: string; bytes: number }[]; hasNext: boolean }> {
    const r = await this.db.query<{ id: string; bytes: number }>(
      `select m.id, octet_length(m.quote) + octet_length(m.normalized) + coalesce(octet_length(m.context), 0) + coalesce(octet_length(m.basis), 0) as bytes
       ${FROM_MEMORY} ${listWhere(order)}`,
      [spaceId, filter.kind ?? null, filter.statuses ?? null, filter.types ?? null, first + 1, offset],
    );
    const items = r.rows.map((x) => ({ id: x.id, bytes: Number(x.bytes) }));
    return { items: items.slice(0, first), hasNext: items.length > first };
  }

  /**
   * The memories each id replaced (their supersededBy or correctedBy names it), oldest first, as
   * members with each quote's length in bytes (`chainMembers`' weighing), in key order; null for
   * more than `max` of them. Two index lookups an id (the links' partial indexes), at most max + 1
   * rows read for each: a memory's own predecessors, however long the chain behind them.
   */
  async predecessorMembers(ids: readonly string[], max: number): Promise<({ id: string; chars: number }[] | null)[]> {
    if (!Number.isSafeInteger(max) || max < 1) throw new Error('predecessorMembers: max must be a positive integer');
    if (ids.length === 0) return [];
    const r = await this.db.query<{ target: string; id: string; chars: number }>(
      `select x.target, p.id, p.chars from unnest($1::text[]) as x(target) cross join lateral (
         select m.id, octet_length(m.quote) as chars, m.said_at, m.seq
         from memory_state s join memories m on m.id = s.memory_id
         where s.superseded_by = x.target or s.corrected_by = x.target
         order by m.said_at, m.seq limit ${max + 1}
       ) p order by p.said_at, p.seq`,
      [ids],
    );
    const rows = r.rows.map((x) => ({ target: x.target, id: x.id, chars: Number(x.chars) }));
    return groupInOrder(ids, rows, (x) => x.target).map((c) => (c.length > max ? null : c.map(({ id, chars }) => ({ id, chars }))));
  }

  /**
   * The members of each id's correction chain (every memory linked to it through supersededBy /
   * correctedBy, in either direction), oldest first, one query per batch, each with the length of
   * its quote in bytes (an upper bound of its characters, read from the value's header): what a
   * caller needs to weigh a chain before reading its records. Null for a chain of more than `max`
   * memories. A memory's link is its supersededBy, else its correctedBy; the walk takes, from each
   * memory reached, the one its link names and the ones whose link names it, each step an index
   * lookup (the key; the two links' partial indexes, migration 18), and the memories reached by key
   * too (LATERAL … OFFSET 0 as in `currentVersions`: for a recursive result the planner's estimate
   * had it hash the whole of memories and memory_state): it reads the chains asked for, not every
   * link of every space.
   */
  async chainMembers(ids: readonly string[], max: number): Promise<({ id: string; chars: number }[] | null)[]> {
    if (!Number.isSafeInteger(max) || max < 1) throw new Error('chainMembers: max must be a positive integer');
    const r = await this.db.query<{ chain_root: string; id: string | null; chars: number | null }>(
      `with recursive walk(root, id) as (
         select x, x from unnest($1::text[]) as x
         union
         select w.root, n.id from walk w cross join lateral (
           select coalesce(s.superseded_by, s.corrected_by) as id from memory_state s where s.memory_id = w.id
           union all
           select s.memory_id from memory_state s
           where (s.superseded_by = w.id or s.corrected_by = w.id) and coalesce(s.superseded_by, s.corrected_by) = w.id
           offset 0
         ) n where n.id is not null
       ), sized as (
         select w.root, w.id, x.said_at, x.seq, x.chars, count(*) over (partition by w.root) as total
         from walk w cross join lateral (
           select m.said_at, m.seq, octet_length(m.quote) as chars from memories m where m.id = w.id offset 0
         ) x
       )
       select root as chain_root, id, chars from (
         select root, id, chars, said_at, seq from sized where total <= ${max}
         union all
         select distinct root, null::text, null::int, null::timestamptz, null::bigint from sized where total > ${max}
       ) y order by said_at, seq`,
      [ids],
    );
    // (a chain too long comes back as one row without a member)
    const tooLong = new Set(r.rows.filter((x) => x.id === null).map((x) => x.chain_root));
    const members = r.rows.flatMap((x) => (x.id === null ? [] : [{ root: x.chain_root, id: x.id, chars: Number(x.chars) }]));
    return groupInOrder(ids, members, (x) => x.root).map((c, i) => (tooLong.has(ids[i]!) ? null : c.map(({ id, chars }) => ({ id, chars }))));
  }

  /**
   * The newest memory of each id's correction chain, following supersededBy /
   * correctedBy forward (itself when nothing replaced it), in key order; at most `steps` steps
   * (the memory reached then still names what replaced it).
   */
  async currentVersions(ids: readonly string[], steps = 100): Promise<(MemoryHead | null)[]> {
    if (ids.length === 0) return [];
    if (!Number.isSafeInteger(steps) || steps < 0) throw new Error('currentVersions: steps must be a non-negative integer');
    const r = await this.db.query<{ rows: string | null }>(
      // Each step is an index probe per id (LATERAL … OFFSET 0 keeps the planner from hashing the
      // whole of memory_state, which it chose for the recursive term's row estimate: ~10× slower at
      // 10K memories); the chain's end is the row with nothing after it (or the last step allowed).
      // The rows come back as one JSON array: a hundred rows of 35 columns, each column parsed
      // by the driver, cost PGlite twice the query itself (one text parsed once: 3.3 -> 1.8 ms);
      // each row an array, not an object (no column names repeated: ~0.13 ms less in PGlite).
      `select ${jsonRows('v', CURRENT_NAMES)} as rows from (with recursive fwd(root, id, next, depth) as (
         select x.root, s.memory_id, coalesce(s.superseded_by, s.corrected_by), 0
         from unnest($1::text[]) as x(root)
           cross join lateral (select s.memory_id, s.superseded_by, s.corrected_by from memory_state s where s.memory_id = x.root offset 0) s
         union all
         select f.root, s.memory_id, coalesce(s.superseded_by, s.corrected_by), f.depth + 1
         from fwd f cross join lateral (
           select s.memory_id, s.superseded_by, s.corrected_by from memory_state s where s.memory_id = f.next offset 0
         ) s
         where f.next is not null and f.depth < $2::int
       )
       select f.root as chain_root, r.* from fwd f cross join lateral (
         select ${HEAD_COLUMNS} ${FROM_MEMORY} where m.id = f.id offset 0
       ) r
       where f.next is null or f.depth >= $2::int) v`,
      [ids, steps],
    );
    const rows = fromJsonRows(r.rows[0]?.rows, CURRENT_NAMES);
    const by = new Map(rows.map((x) => [x.chain_root as string, toMemoryHead(x)]));
    return ids.map((id) => by.get(id) ?? null);
  }

  /**
   * Every wording of each memory, oldest first, including the wordings of memories
   * merged into it by consolidation (mention rows never move: content is append-only).
   */
  async mentionsOf(memoryIds: readonly string[], tx?: Tx): Promise<Mention[][]> {
    const r = await this.q(tx).query<Row>(
      `${MERGE_TREE}
       select t.root as for_id, mn.* from tree t join mentions mn on mn.memory_id = t.id order by mn.seq`,
      [memoryIds],
    );
    return groupInOrder(memoryIds, r.rows, (x) => x.for_id as string).map((rows) => rows.map(toMention));
  }

  async mentionPages(memoryIds: readonly string[], first: number, after: string | null): Promise<(Mention[] | null)[]> {
    // (MERGE_TREE: a memory's own wordings and those of the memories merged into it.) With an
    // `after`, one row more per memory that holds it (`is_cursor`): a page of none is told apart
    // from an `after` that is not the memory's own, in the same statement.
    const r = await this.db.query<Row>(
      `${MERGE_TREE}, cursor as (
         select t.root, a.seq from tree t join mentions a on a.memory_id = t.id where a.id = $3
       )
       select x.* from (
         select t.root as for_id, mn.*, row_number() over (partition by t.root order by mn.seq) as rn, false as is_cursor
         from tree t join mentions mn on mn.memory_id = t.id
         where $3::text is null or mn.seq > (select c.seq from cursor c where c.root = t.root)
       ) x where x.rn <= $2
       union all
       select c.root, mn.*, 0, true from cursor c join mentions mn on mn.id = $3
       order by seq`,
      [memoryIds, first, after],
    );
    const holding = new Set(r.rows.filter((x) => x.is_cursor).map((x) => x.for_id as string));
    const pages = groupInOrder(memoryIds, r.rows.filter((x) => !x.is_cursor), (x) => x.for_id as string).map((rows) => rows.map(toMention));
    return after === null ? pages : pages.map((p, i) => (holding.has(memoryIds[i]!) ? p : null));
  }

  async eventPages(memoryIds: readonly string[], first: number, after: number | null): Promise<MemoryEvent[][]> {
    const r = await this.db.query<Row>(
      `select x.* from (
         select e.*, row_number() over (partition by e.memory_id order by e.id) as rn
         from memory_events e where e.memory_id = any($1::text[]) and ($3::bigint is null or e.id > $3::bigint)
       ) x where x.rn <= $2 order by x.id`,
      [memoryIds, first, after],
    );
    return groupInOrder(memoryIds, r.rows.map(toEvent), (e) => e.memoryId ?? '');
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

  async lastEventId(spaceId: string, tx?: Tx): Promise<number> {
    const r = await this.q(tx).query<{ id: string | number | null }>(`select ${lastEventOf('$1')} as id`, [spaceId]);
    return Number(r.rows[0]?.id ?? 0);
  }
}
