// Migration 1 ('core'): the tables, indexes and append-only triggers (src/store/migrations.ts applies it).

const TYPES = `'FACT','PREFERENCE','INSTRUCTION','EVENT','TASK','REMINDER','APPOINTMENT','MEMO'`;
const STATUSES = `'ACTIVE','MUTED','RETRACTED','SUPERSEDED','ERRONEOUS','MERGED'`;

export const CORE_SQL = (dimensions: number): string => `
create extension if not exists vector;

create table spaces (
  id text primary key,
  name text not null,
  sealed boolean not null default false,
  time_zone text not null default 'UTC',
  created_at timestamptz not null default now()
);

create table conversations (
  id text primary key,
  space_id text not null references spaces(id) on delete cascade,
  created_at timestamptz not null default now()
);
create index conversations_space on conversations(space_id);

create table messages (
  id text primary key,
  seq bigint generated always as identity,
  conversation_id text not null references conversations(id) on delete cascade,
  space_id text not null references spaces(id) on delete cascade,
  role text not null check (role in ('USER','ASSISTANT')),
  text text not null,
  at timestamptz not null,
  created_at timestamptz not null default now()
);
create index messages_conversation on messages(conversation_id, seq);

create table memories (
  id text primary key,
  seq bigint generated always as identity,
  space_id text not null references spaces(id) on delete cascade,
  kind text not null check (kind in ('STATEMENT','INFERENCE')),
  type text not null check (type in (${TYPES})),
  quote text not null,
  normalized text not null,
  conversation_id text references conversations(id) on delete set null,
  message_id text references messages(id) on delete set null,
  context text,
  basis text,
  said_at timestamptz not null,
  starts_at timestamptz,
  ends_at timestamptz,
  due_at timestamptz,
  all_day boolean not null default false,
  created_at timestamptz not null default now()
);
create index memories_space on memories(space_id, kind, seq);
create index memories_normalized on memories(space_id, normalized);
create index memories_message on memories(message_id);

create table memory_state (
  memory_id text primary key references memories(id) on delete cascade,
  space_id text not null,
  kind text not null,
  type text not null,
  status text not null default 'ACTIVE' check (status in (${STATUSES})),
  mention_count integer not null default 1,
  recall_count integer not null default 0,
  last_mentioned_at timestamptz not null,
  importance real,
  valence real,
  entities text[] not null default '{}',
  themes text[] not null default '{}',
  tags text[] not null default '{}',
  superseded_by text references memories(id) on delete set null,
  corrected_by text references memories(id) on delete set null,
  merged_into text references memories(id) on delete set null,
  embedding_status text not null default 'OK' check (embedding_status in ('OK','MISSING')),
  review text check (review in ('PENDING','ACCEPTED','DISMISSED')),
  resolution text check (resolution in ('DONE','CANCELLED')),
  resolved_at timestamptz,
  status_changed_at timestamptz,
  updated_at timestamptz not null default now()
);
create index memory_state_space on memory_state(space_id, kind, status);
create index memory_state_superseded_by on memory_state(superseded_by);
create index memory_state_corrected_by on memory_state(corrected_by);
create index memory_state_merged_into on memory_state(merged_into);

create table mentions (
  id text primary key,
  seq bigint generated always as identity,
  memory_id text not null references memories(id) on delete cascade,
  space_id text not null,
  quote text not null,
  conversation_id text references conversations(id) on delete set null,
  message_id text references messages(id) on delete set null,
  said_at timestamptz not null,
  tier text not null check (tier in ('ORIGINAL','EXACT','CLOSE','RELATED')),
  score real,
  created_at timestamptz not null default now()
);
create index mentions_memory on mentions(memory_id, seq);

create table memory_vectors (
  memory_id text primary key references memories(id) on delete cascade,
  space_id text not null,
  kind text not null,
  embedder text not null,
  embedding vector(${dimensions}) not null
);
create index memory_vectors_space on memory_vectors(space_id, kind);
create index memory_vectors_hnsw on memory_vectors using hnsw (embedding vector_cosine_ops);

create table memory_lexicon (
  memory_id text primary key references memories(id) on delete cascade,
  space_id text not null,
  doc tsvector not null
);
create index memory_lexicon_doc on memory_lexicon using gin (doc);
create index memory_lexicon_space on memory_lexicon(space_id);

create table memory_events (
  id bigint generated always as identity primary key,
  space_id text not null,
  memory_id text,
  kind text not null,
  actor text not null,
  tier text,
  score real,
  rule text,
  related_id text,
  detail jsonb,
  at timestamptz not null default now()
);
create index memory_events_memory on memory_events(memory_id, id);
create index memory_events_space on memory_events(space_id, id);

create table tokens (
  id text primary key,
  hash text not null unique,
  role text not null check (role in ('admin','operator','chat','assistant')),
  space_id text references spaces(id) on delete cascade,
  label text,
  created_at timestamptz not null default now(),
  revoked_at timestamptz
);

create table vector_outbox (
  id bigint generated always as identity primary key,
  engine text not null,
  memory_id text not null,
  op text not null check (op in ('upsert','status','remove','remove_space')),
  created_at timestamptz not null default now(),
  attempts integer not null default 0,
  last_error text
);
create index vector_outbox_engine on vector_outbox(engine, id);

-- Append-only content. The one exception is "forget for good", which sets
-- engram.forget = 'on' for its own transaction only (SET LOCAL).
create or replace function engram_forgetting() returns boolean language sql as $$
  select coalesce(current_setting('engram.forget', true), '') = 'on'
$$;

create or replace function engram_refuse_update() returns trigger language plpgsql as $$
begin
  if engram_forgetting() then return new; end if;
  raise exception 'append-only: % rows cannot be updated', tg_table_name using errcode = 'P0001';
end $$;

create or replace function engram_refuse_delete() returns trigger language plpgsql as $$
begin
  if engram_forgetting() then return old; end if;
  raise exception 'append-only: % rows can only be deleted by forget-for-good', tg_table_name using errcode = 'P0001';
end $$;

create or replace function engram_refuse_truncate() returns trigger language plpgsql as $$
begin
  raise exception 'append-only: % cannot be truncated', tg_table_name using errcode = 'P0001';
end $$;

create trigger memories_no_update before update on memories for each row execute function engram_refuse_update();
create trigger memories_no_delete before delete on memories for each row execute function engram_refuse_delete();
create trigger memories_no_truncate before truncate on memories for each statement execute function engram_refuse_truncate();
create trigger mentions_no_update before update on mentions for each row execute function engram_refuse_update();
create trigger mentions_no_delete before delete on mentions for each row execute function engram_refuse_delete();
create trigger mentions_no_truncate before truncate on mentions for each statement execute function engram_refuse_truncate();
create trigger messages_no_update before update on messages for each row execute function engram_refuse_update();
create trigger messages_no_delete before delete on messages for each row execute function engram_refuse_delete();
create trigger messages_no_truncate before truncate on messages for each statement execute function engram_refuse_truncate();
`;

/** Splits a migration into statements, keeping `$$ ... $$` bodies whole. */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let cur = '';
  let inDollar = false;
  for (const line of sql.split('\n')) {
    if (!inDollar && (line.trim().startsWith('--') || line.trim() === '')) continue;
    cur += line + '\n';
    const marks = line.match(/\$\$/g)?.length ?? 0;
    if (marks % 2 === 1) inDollar = !inDollar;
    if (!inDollar && line.trimEnd().endsWith(';')) {
      out.push(cur.trim());
      cur = '';
    }
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
