// Migrations 13 and 17 (src/store/migrations.ts applies them): the lexicon's document frequencies.

/**
 * The lexicon's trigger function (migration 4's, with document frequencies). `versioned`
 * (migration 17): every df row a statement changes takes that statement's number from
 * `lexicon_df_ver` (one `nextval` per statement, not per row: ~0.4 ms less per remember on PGlite),
 * through `engram_lexicon_ver()`, which runs as the migration's owner: a service role may write
 * memories before the grants that follow the migration reach the new sequence (several instances,
 * one upgraded first).
 *
 * `docs` is materialized (migration 25): each document's length is counted once. Inlined, the
 * planner counted it again for every term of the document (a subplan per row of the lateral
 * unnest), quadratic in the terms: a remember of a 20,000-character quote of 2,500 distinct words
 * held the embedded store's one connection 3–10 s (0.1–0.3 s now), every other space waiting.
 */
/**
 * The trigger's statement for the rows written (`added`, its transition table): their postings,
 * the space's totals and the terms' document frequencies (`v`: the statement's version, when
 * `versioned`). Exported for test/store/lexicon-trigger-plan.test.ts, which reads its plan.
 */
export function addedPostingsSql(versioned: boolean): string {
  const bump = versioned ? ', ver = v' : '';
  return `    with docs as materialized (
      select a.memory_id, a.space_id, m.kind, a.doc,
        (select coalesce(sum(coalesce(array_length(p.positions, 1), 1)), 0) from unnest(a.doc) p)::int as len
      from added a join memories m on m.id = a.memory_id
    ), ins as (
      insert into memory_terms (space_id, kind, term, memory_id, tf, len)
      select d.space_id, d.kind, u.lexeme, d.memory_id, coalesce(array_length(u.positions, 1), 1), d.len
      from docs d cross join lateral unnest(d.doc) u
      returning space_id, kind, term, memory_id, len
    ), per as (
      select distinct space_id, kind, memory_id, len from ins
    ), totals as (
      insert into lexicon_stats (space_id, kind, docs, total_len)
      select space_id, kind, count(*), sum(len) from per group by space_id, kind
      on conflict (space_id, kind) do update
        set docs = lexicon_stats.docs + excluded.docs, total_len = lexicon_stats.total_len + excluded.total_len
    )
    insert into lexicon_df (space_id, kind, term, df${versioned ? ', ver' : ''})
    select space_id, kind, term, count(*)${versioned ? ', v' : ''} from ins group by space_id, kind, term order by space_id, kind, term
    on conflict (space_id, kind, term) do update set df = lexicon_df.df + excluded.df${bump};`;
}

function postingsFunction(versioned: boolean): string {
  const bump = versioned ? ', ver = v' : '';
  return `create or replace function engram_lexicon_postings() returns trigger language plpgsql as $$
${versioned ? 'declare v bigint := engram_lexicon_ver();\n' : ''}begin
  if tg_op in ('UPDATE', 'DELETE') then
    with d as (
      delete from memory_terms t using gone g where t.memory_id = g.memory_id
      returning t.space_id, t.kind, t.term, t.memory_id, t.len
    ), per as (
      select distinct space_id, kind, memory_id, len from d
    ), totals as (
      update lexicon_stats s set docs = s.docs - x.n, total_len = s.total_len - x.l
      from (select space_id, kind, count(*) as n, sum(len) as l from per group by space_id, kind) x
      where s.space_id = x.space_id and s.kind = x.kind
    )
    update lexicon_df f set df = f.df - x.n${bump}
    from (select space_id, kind, term, count(*)::int as n from d group by space_id, kind, term order by space_id, kind, term) x
    where f.space_id = x.space_id and f.kind = x.kind and f.term = x.term;
  end if;
  if tg_op in ('INSERT', 'UPDATE') then
${addedPostingsSql(versioned)}
  end if;
  if tg_op in ('UPDATE', 'DELETE') then
    -- terms no memory holds any more (after an update's new wording is counted back in)
    delete from lexicon_df f
    using (select distinct g.space_id, u.lexeme as term from gone g cross join lateral unnest(g.doc) u) x
    where f.space_id = x.space_id and f.kind in ('STATEMENT', 'INFERENCE') and f.term = x.term and f.df <= 0;
  end if;
  return null;
end $$;
`;
}

// Migration 13 ('lexicon-document-frequencies').
/**
 * Each term's document frequency per (space, kind), kept by the lexicon's triggers beside the
 * postings and totals of migration 4. BM25's statistics read one row per query term instead of
 * counting the term's postings (an index range of every memory that holds the word: ~350 rows
 * per common term at 10K memories, ten times that at 100K), on PGlite and a server alike.
 *
 * A row exists only while some memory holds the term (a forget that removes a term's last
 * holder deletes the row: the words are content, erasure vacuums this table like the postings).
 * Rows are written in (space, kind, term) order, so two writers of one space never take their
 * row locks in opposite orders.
 */
export const LEXICON_DF_SQL = `
create table lexicon_df (
  space_id text not null,
  kind text not null,
  term text not null,
  df integer not null,
  primary key (space_id, kind, term)
);
alter table lexicon_df alter column term set statistics 0;

${postingsFunction(false)}
insert into lexicon_df (space_id, kind, term, df)
  select space_id, kind, term, count(*) from memory_terms group by space_id, kind, term;
`;

// Migration 17 ('lexicon-term-versions').
/**
 * A version per (space, kind, term): any change to the term's postings there (a memory that holds
 * it written, reworded or forgotten) changes its df row, and with this migration its `ver`, a
 * number from one sequence. The embedded store keeps postings it read in the process
 * (src/store/postings-cache.ts) and uses them only while the statistics statement, which reads
 * each query term's df, reads the same `ver` (docs/recall.md, "Postings held").
 */
export const LEXICON_VER_SQL = `
create sequence if not exists lexicon_df_ver;
create or replace function engram_lexicon_ver() returns bigint language sql security definer set search_path from current
  as $$ select nextval('lexicon_df_ver') $$;
alter table lexicon_df add column ver bigint not null default nextval('lexicon_df_ver');
${postingsFunction(true)}`;

// Migration 25 ('lexicon-length-once').
/** The trigger function of migration 17, its documents materialized (see `postingsFunction`). */
export const LEXICON_LENGTH_ONCE_SQL = postingsFunction(true);
