import type { SqlClient } from './sql-client.js';
import { StoreError } from './sql-client.js';
import { PRIVILEGES_SQL, serviceGrantsSql } from './migration-privileges.js';
import { CORE_SQL, splitStatements } from './migration-core.js';
import { LEXICON_DF_SQL, LEXICON_LENGTH_ONCE_SQL, LEXICON_VER_SQL } from './migration-lexicon-df.js';
import { ERASURE_OWED_SQL, erasureNotifySql, EVENT_REASONS_WITHOUT_WORDS_SQL, FORGET_EVERY_COPY_SQL } from './migration-erasure.js';
import { EVENTS_BY_MEMORY_HASH_SQL, LEAN_WRITE_INDEXES_SQL, leanEventsSql } from './migration-indexes.js';
import { vectorBitsInSpaceOrderSql } from './migration-vectors.js';
import { EVENT_NOTIFY_UNHEARD_SQL, NOTIFY_EVENTS_LOOP, spaceDroppedNotifySql } from './migration-live.js';

/**
 * Versioned migrations, applied in order at start, each once (recorded in
 * `schema_migrations`). Every statement is valid on PostgreSQL 15+ and on
 * PGlite alike. Layout rules:
 * - `memories`, `mentions`, `messages` hold content and are append-only (triggers);
 * - `memory_state` holds what changes (status, counters, merged sets), so a status
 *   change never rewrites `memory_vectors` and its HNSW index (pgvector #875);
 * - `memory_events` never holds a memory's text, so forgetting leaves it intact.
 */
export interface Migration {
  version: number;
  name: string;
  sql: (opts: MigrationOptions & { driver: SqlClient['driver'] }) => string;
}

export interface MigrationOptions {
  dimensions: number;
  /** Applies migrations up to this version only (tests of an upgrade: a database as an older Engram left it). */
  upTo?: number;
}

export const MIGRATIONS: Migration[] = [
  {
    version: 1,
    name: 'core',
    sql: ({ dimensions }) => CORE_SQL(dimensions),
  },
  {
    version: 2,
    name: 'tidy',
    sql: () => `
-- Consolidation never moves mention rows (content is append-only): a merge is a row
-- here recording what it added to the reference, so unmerge subtracts exactly that.
create table memory_merges (
  id bigint generated always as identity primary key,
  space_id text not null,
  memory_id text not null references memories(id) on delete cascade,
  into_id text not null references memories(id) on delete cascade,
  added integer not null,
  tier text,
  score real,
  merged_at timestamptz not null default now(),
  undone_at timestamptz
);
create index memory_merges_memory on memory_merges(memory_id) where undone_at is null;
create index memory_merges_into on memory_merges(into_id);
-- Cleanup sweeps select a space's memories by type.
create index memories_space_type on memories(space_id, type);
`,
  },
  {
    version: 3,
    name: 'lazy-hnsw',
    // The HNSW index is built by the pgvector adapter once the table outgrows exact
    // scans (adapters/pgvector); maintaining it on every insert of a small table buys nothing.
    sql: () => `drop index if exists memory_vectors_hnsw;`,
  },
  {
    version: 4,
    name: 'lexicon-postings',
    // Lexical recall scores BM25 from postings: one row per (space, kind, term, memory)
    // with the term's frequency and the document's length, plus per-(space, kind) totals.
    // Document frequencies are then an index-only count per term and a query is scored
    // by one aggregate over its terms' postings, instead of ranking every matching
    // tsvector of the space (~200 ms at 100K memories). Triggers on memory_lexicon keep
    // both in step with every writer (insert, reinforcement, unmerge, forget, bulk loads).
    sql: () => `
create table memory_terms (
  space_id text not null,
  kind text not null,
  term text not null,
  memory_id text not null,
  tf integer not null,
  len integer not null,
  -- covering: a query's postings are read from the index alone (index-only scans)
  primary key (space_id, kind, term, memory_id) include (tf, len)
);
create index memory_terms_memory on memory_terms(memory_id);

create table lexicon_stats (
  space_id text not null,
  kind text not null,
  docs integer not null,
  total_len bigint not null,
  primary key (space_id, kind)
);

create or replace function engram_lexicon_postings() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then
    with d as (
      delete from memory_terms t using gone g where t.memory_id = g.memory_id
      returning t.space_id, t.kind, t.memory_id, t.len
    ), per as (
      select distinct space_id, kind, memory_id, len from d
    )
    update lexicon_stats s set docs = s.docs - x.n, total_len = s.total_len - x.l
    from (select space_id, kind, count(*) as n, sum(len) as l from per group by space_id, kind) x
    where s.space_id = x.space_id and s.kind = x.kind;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
    with docs as (
      select a.memory_id, a.space_id, m.kind, a.doc,
        (select coalesce(sum(coalesce(array_length(p.positions, 1), 1)), 0) from unnest(a.doc) p)::int as len
      from added a join memories m on m.id = a.memory_id
    ), ins as (
      insert into memory_terms (space_id, kind, term, memory_id, tf, len)
      select d.space_id, d.kind, u.lexeme, d.memory_id, coalesce(array_length(u.positions, 1), 1), d.len
      from docs d cross join lateral unnest(d.doc) u
      returning space_id, kind, memory_id, len
    ), per as (
      select distinct space_id, kind, memory_id, len from ins
    )
    insert into lexicon_stats (space_id, kind, docs, total_len)
    select space_id, kind, count(*), sum(len) from per group by space_id, kind
    on conflict (space_id, kind) do update
      set docs = lexicon_stats.docs + excluded.docs, total_len = lexicon_stats.total_len + excluded.total_len;
  end if;
  return null;
end $$;

create trigger memory_lexicon_postings_ins after insert on memory_lexicon
  referencing new table as added for each statement execute function engram_lexicon_postings();
create trigger memory_lexicon_postings_upd after update on memory_lexicon
  referencing old table as gone new table as added for each statement execute function engram_lexicon_postings();
create trigger memory_lexicon_postings_del after delete on memory_lexicon
  referencing old table as gone for each statement execute function engram_lexicon_postings();

-- Existing lexicon rows: rewriting each row once fires the triggers above.
update memory_lexicon set doc = doc;
`,
  },
  {
    version: 5,
    name: 'privileges',
    // Append-only enforced by the database: src/store/migration-privileges.ts, docs/append-only.md.
    sql: () => PRIVILEGES_SQL,
  },
  {
    version: 7,
    name: 'normalized-hash-index',
    // A btree entry holds at most ~2,700 bytes: indexing the normalised text itself refused every
    // quote over ~8,000 characters ("index row size ... exceeds btree maximum"). The exact-restatement
    // lookup now finds rows by an md5 of the text and compares the text itself on the few it finds.
    sql: () => `
drop index if exists memories_normalized;
create index if not exists memories_normalized_md5 on memories(space_id, md5(normalized));
  `,
  },
  {
    version: 9,
    name: 'vector-sign-bits',
    // The sign bits of every vector (pgvector's binary_quantize: dimensions / 8 bytes), kept
    // in the row: the quantised first pass of recognition ranks a space by Hamming distance
    // over them and reranks the best few by exact cosine (adapters/pgvector, docs/bench.md).
    sql: ({ dimensions }) => `
alter table memory_vectors add column if not exists bq bit(${dimensions})
  generated always as (binary_quantize(embedding)::bit(${dimensions})) stored;
`,
  },
  {
    version: 10,
    name: 'event-notify-and-job-runs',
    // Events across instances (docs/live-updates.md): each statement that writes events
    // notifies, per space, the space and its last event id on channel engram_events, at
    // commit and in commit order. Never the rows (no text, and no payload near NOTIFY's
    // 8000-byte limit): listeners read the rows after their cursor. A space id too long for
    // a payload is left out; listeners then re-read every space they watch.
    sql: () => `
create or replace function engram_notify_events() returns trigger language plpgsql as $$
declare r record;
begin
${NOTIFY_EVENTS_LOOP}  return null;
end $$;

create trigger memory_events_notify after insert on memory_events
  referencing new table as new_events for each statement execute function engram_notify_events();

-- Scheduled background jobs, once per due time across instances (src/ops/jobs.ts): the
-- instance that inserts the (job, due_at) row runs it.
create table job_runs (
  job text not null,
  due_at timestamptz not null,
  instance text not null,
  started_at timestamptz not null default now(),
  finished_at timestamptz,
  result text,
  primary key (job, due_at)
);
`,
  },
  {
    version: 11,
    name: 'vector-bits-table-and-inline-vectors',
    // The sign bits move to a narrow table of their own (memory_id, space, kind, bits: ~130 bytes
    // a row), kept by triggers on memory_vectors (every write path: the store's insert, the
    // adapter's upsert; deletes cascade): the quantised first pass reads 1.3 MB at 10K rows, not
    // memory_vectors' heap. The vectors themselves then stay in memory_vectors' row (storage
    // MAIN, toast_tuple_target 8160: a 512-d vector, 2 KB, is no longer moved out of line to
    // TOAST), so the exact scan and the rerank read them without detoasting (docs/engines.md,
    // pgvector). Rows written before this migration keep their out-of-line vectors until
    // rewritten (VACUUM FULL memory_vectors); nothing else differs for them.
    sql: ({ dimensions }) => `
create table memory_vector_bits (
  memory_id text primary key references memory_vectors(memory_id) on delete cascade,
  space_id text not null,
  kind text not null,
  bq bit(${dimensions}) not null
);
insert into memory_vector_bits (memory_id, space_id, kind, bq)
  select memory_id, space_id, kind, binary_quantize(embedding)::bit(${dimensions}) from memory_vectors;
create index memory_vector_bits_space on memory_vector_bits(space_id, kind);

create or replace function engram_vector_bits_new() returns trigger language plpgsql as $$
begin
  insert into memory_vector_bits (memory_id, space_id, kind, bq)
    select memory_id, space_id, kind, binary_quantize(embedding)::bit(${dimensions}) from new_rows
  on conflict (memory_id) do update set space_id = excluded.space_id, kind = excluded.kind, bq = excluded.bq;
  return null;
end $$;
create trigger memory_vectors_bits_insert after insert on memory_vectors
  referencing new table as new_rows for each statement execute function engram_vector_bits_new();
create trigger memory_vectors_bits_update after update on memory_vectors
  referencing new table as new_rows for each statement execute function engram_vector_bits_new();

drop index if exists memory_vectors_bq_hnsw;
alter table memory_vectors drop column if exists bq;
alter table memory_vectors alter column embedding set storage main;
alter table memory_vectors set (toast_tuple_target = 8160);
`,
  },
  {
    version: 12,
    name: 'vector-bits-seq',
    // Every insert or update of a vector's sign bits takes the next number of one sequence, so
    // a reader can ask "what changed in this space since number n" through an index range scan:
    // the embedded store's in-process copy of the bits (adapters/pgvector/vector-mirror.ts) is
    // kept current that way before each search.
    sql: ({ dimensions }) => `
create sequence if not exists memory_vector_bits_seq;
alter table memory_vector_bits add column seq bigint not null default nextval('memory_vector_bits_seq');
create index memory_vector_bits_space_seq on memory_vector_bits(space_id, kind, seq);
drop index if exists memory_vector_bits_space;
create or replace function engram_vector_bits_new() returns trigger language plpgsql as $$
begin
  insert into memory_vector_bits (memory_id, space_id, kind, bq)
    select memory_id, space_id, kind, binary_quantize(embedding)::bit(${dimensions}) from new_rows
  on conflict (memory_id) do update set space_id = excluded.space_id, kind = excluded.kind, bq = excluded.bq,
    seq = nextval('memory_vector_bits_seq');
  return null;
end $$;
`,
  },
  {
    version: 13,
    name: 'lexicon-document-frequencies',
    // Each term's document frequency per (space, kind), kept by the lexicon's triggers: BM25's
    // statistics read a row per query term, not a count of its postings (src/store/migration-lexicon-df.ts).
    sql: () => LEXICON_DF_SQL,
  },
  {
    version: 14,
    name: 'event-notify-unheard',
    // The embedded store (PGlite: one process, one session) publishes events in process and
    // never LISTENs: its sessions started with engram.notify_events = off (until migration 20
    // dropped the trigger there) and the trigger of migration 10 then notified nothing (a
    // notification nobody hears still cost each remember's insert ~0.5 ms in WebAssembly). A
    // server's sessions never set it.
    sql: () => EVENT_NOTIFY_UNHEARD_SQL,
  },
  {
    version: 15,
    name: 'messages-by-date',
    // A remember checks its quote against the conversation's last messages first; whether an
    // earlier message is dated after the oldest of them (it would be read first) is then a range
    // of this index (the few messages dated that late), not a scan of the conversation.
    sql: () => `create index if not exists messages_conversation_at on messages(conversation_id, at);`,
  },
  {
    version: 16,
    name: 'write-guard',
    // A store that runs one statement at a time (PGlite) writes a new memory as one statement that
    // checks the space's last event id itself (src/store/sql-memory-writes.ts, docs/concurrency.md):
    // an error, and nothing written, if the space was written since the id its recognition read.
    sql: () => `create or replace function engram_unchanged_since(p_space text, p_seen bigint) returns boolean
  language plpgsql stable as $$
begin
  if coalesce((select max(id) from memory_events where space_id = p_space), 0) <> p_seen then
    raise exception 'engram: the space was written since event %', p_seen using errcode = 'EG001';
  end if;
  return true;
end $$;`,
  },
  {
    version: 17,
    name: 'lexicon-term-versions',
    // A version per (space, kind, term), changed with its postings: the embedded store's postings
    // held in the process are used only while it matches (src/store/migration-lexicon-df.ts).
    sql: () => LEXICON_VER_SQL,
  },
  {
    version: 18,
    name: 'lean-write-indexes',
    // Fewer index entries per memory written (src/store/migration-indexes.ts).
    sql: () => LEAN_WRITE_INDEXES_SQL,
  },
  {
    version: 19,
    name: 'events-by-memory-hash',
    // The events' lookup by memory as a hash index (src/store/migration-indexes.ts).
    sql: () => EVENTS_BY_MEMORY_HASH_SQL,
  },
  {
    version: 20,
    name: 'lean-events',
    // Events keyed by space; the embedded store drops the notification trigger (src/store/migration-indexes.ts).
    sql: ({ driver }) => leanEventsSql(driver),
  },
  // Forget for good redacts every copy of the words in the space (src/store/migration-erasure.ts).
  { version: 21, name: 'forget-every-copy', sql: () => FORGET_EVERY_COPY_SQL },
  // A space's vectors are numbered in commit order (src/store/migration-vectors.ts).
  { version: 22, name: 'vector-bits-in-space-order', sql: ({ dimensions, driver }) => vectorBitsInSpaceOrderSql(dimensions, driver) },
  // On a server, deleted memories are announced to every instance (src/store/migration-erasure.ts).
  { version: 23, name: 'erasure-notify', sql: ({ driver }) => erasureNotifySql(driver) },
  // A recognised correction's event names its rule, never the values (src/store/migration-erasure.ts).
  { version: 24, name: 'event-reasons-without-words', sql: () => EVENT_REASONS_WITHOUT_WORDS_SQL },
  // The lexicon's trigger counts a document's length once, not once per term (src/store/migration-lexicon-df.ts).
  { version: 25, name: 'lexicon-length-once', sql: () => LEXICON_LENGTH_ONCE_SQL },
  // On a server, a space dropped is announced to every instance: its subscriptions end (src/store/migration-live.ts).
  { version: 26, name: 'space-dropped-notify', sql: ({ driver }) => spaceDroppedNotifySql(driver) },
  // An erasure owed survives the process: a forget's transaction records it, the erasure clears it (src/store/erasure.ts).
  { version: 27, name: 'erasure-owed', sql: () => ERASURE_OWED_SQL },
  // A retried remember finds the wording it wrote: mentions by message (src/memory/remember.ts, "retry").
  { version: 28, name: 'mentions-by-message', sql: () => `create index if not exists mentions_message on mentions(message_id);` },
];

/**
 * Applies every migration not yet recorded, each in a transaction of its own with its record (a
 * migration is all or nothing; a run that fails part-way resumes at the one that failed). Safe to
 * call at every start and from several processes: a transaction-scoped advisory lock serialises
 * them, and each transaction reads again what is applied. One at a time, a run over several never
 * holds one migration's table locks while it waits for the next's: each locks the tables it
 * changes, in an order its comment gives against the writers of the previous version, which may
 * be writing meanwhile (several instances, one upgraded first; test/store/write-indexes.test.ts).
 */
export async function migrate(db: SqlClient, opts: MigrationOptions): Promise<number[]> {
  await db.exec(`create table if not exists schema_migrations (
    version integer primary key, name text not null, applied_at timestamptz not null default now());
    create table if not exists engram_meta (key text primary key, value text not null);`);
  const applied: number[] = [];
  for (;;) {
    const version = await db.transaction(async (tx) => {
      await tx.query(`select pg_advisory_xact_lock(7340032)`);
      const done = new Set(
        (await tx.query<{ version: number }>(`select version from schema_migrations`)).rows.map((r) => Number(r.version)),
      );
      const dim = (await tx.query<{ value: string }>(`select value from engram_meta where key = 'dimensions'`)).rows[0];
      if (dim && Number(dim.value) !== opts.dimensions) {
        throw new StoreError(
          `this database holds ${dim.value}-dimension vectors but the embedder makes ${opts.dimensions}; ` +
            `use a new data directory or database, or re-embed (engram reembed --all) after changing it`,
        );
      }
      // Recorded with the first migration that writes vectors' types: a run stopped part-way and
      // resumed with another embedder is refused above, never mixed.
      await tx.query(
        `insert into engram_meta (key, value) values ('dimensions', $1) on conflict (key) do nothing`,
        [String(opts.dimensions)],
      );
      const m = MIGRATIONS.find((x) => !done.has(x.version) && (opts.upTo === undefined || x.version <= opts.upTo));
      if (!m) return null;
      for (const stmt of splitStatements(m.sql({ ...opts, driver: db.driver }))) await tx.query(stmt);
      await tx.query(`insert into schema_migrations (version, name) values ($1, $2)`, [m.version, m.name]);
      return m.version;
    });
    if (version === null) return applied;
    applied.push(version);
  }
}

/**
 * Grants the service role (the user of `service`) what it may do on the owner's tables
 * (src/store/migration-privileges.ts). Run by the owner at every start, after `migrate`.
 */
export async function grantServiceRole(owner: SqlClient, service: SqlClient): Promise<string> {
  const role = (await service.query<{ u: string }>(`select current_user as u`)).rows[0].u;
  const me = (await owner.query<{ u: string; s: string; su: boolean }>(
    `select current_user as u, current_schema() as s, (select rolsuper from pg_roles where rolname = current_user) as su`)).rows[0];
  if (role === me.u) return role;
  for (const stmt of splitStatements(serviceGrantsSql(role, me.s))) await owner.query(stmt);
  return role;
}
