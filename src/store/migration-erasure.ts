/**
 * Migration 21 (docs/erasure.md, "Every copy"): forget for good redacts the forgotten wordings
 * from every message of the space that holds them, not only from the messages they were said in.
 * `engram_forget` (migration 5) refused to rewrite any other message; it now accepts a message of
 * the space that was said by a memory being forgotten or holds every word of one of their wordings
 * (its end punctuation aside: a copy may be typed without it),
 * and still only when the new text removes words (`engram_only_removes`). Same signature, so the
 * grants of migration 5 stand.
 */

/** Whitespace and the quote marks the quote check unifies (src/core/sentences.ts), the single quote doubled for the SQL literal: a wording's words lie between them. */
const WORD_GAPS = String.raw`[[:space:]\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff''"\u2018\u2019\u201b\u2032\u02bc\u00b4\u201c\u201d\u201e\u201f\u2033` + '`' + ']+';

export const FORGET_EVERY_COPY_SQL = `
create or replace function engram_forget(p_space text, p_ids text[], p_messages text[], p_texts text[],
                                         p_context_ids text[], p_contexts text[])
returns setof text language plpgsql security definer set search_path from current as $$
declare
  i int;
  old_text text;
begin
  for i in 1 .. coalesce(array_length(p_messages, 1), 0) loop
    select m.text into old_text from messages m where m.id = p_messages[i] and m.space_id = p_space;
    if not found then
      raise exception 'forget: message % is not of this space', p_messages[i] using errcode = 'P0001';
    end if;
    if not exists (select 1 from mentions x where x.message_id = p_messages[i] and x.memory_id = any(p_ids) and x.space_id = p_space)
       and not exists (select 1 from memories m where m.message_id = p_messages[i] and m.id = any(p_ids) and m.space_id = p_space)
       and not exists (
         select 1 from (select x.quote from mentions x where x.memory_id = any(p_ids) and x.space_id = p_space
                        union all select m.quote from memories m where m.id = any(p_ids) and m.space_id = p_space) w,
                       lateral (select array_remove(regexp_split_to_array(
                                  regexp_replace(w.quote, '[[:space:]]*[.!?…]+[[:space:]]*$', ''), '${WORD_GAPS}'), '') as words) p
         where cardinality(p.words) > 0
           and not exists (select 1 from unnest(p.words) as t(word) where strpos(old_text, t.word) = 0)) then
      raise exception 'forget: message % holds no wording of a memory being forgotten', p_messages[i] using errcode = 'P0001';
    end if;
    if p_texts[i] is not null and not engram_only_removes(old_text, p_texts[i]) then
      raise exception 'forget: the new text of message % does not only remove words', p_messages[i] using errcode = 'P0001';
    end if;
  end loop;
  for i in 1 .. coalesce(array_length(p_context_ids, 1), 0) loop
    select m.context into old_text from memories m
      where m.id = p_context_ids[i] and m.space_id = p_space and m.message_id = any(p_messages) and not (m.id = any(p_ids));
    if not found then
      raise exception 'forget: memory % was not said in a message being redacted', p_context_ids[i] using errcode = 'P0001';
    end if;
    if p_contexts[i] is not null and not engram_only_removes(old_text, p_contexts[i]) then
      raise exception 'forget: the new context of memory % does not only remove words', p_context_ids[i] using errcode = 'P0001';
    end if;
  end loop;
  perform set_config('engram.forget', 'on', true);
  return query delete from memories where id = any(p_ids) and space_id = p_space returning id;
  for i in 1 .. coalesce(array_length(p_context_ids, 1), 0) loop
    update memories set context = p_contexts[i] where id = p_context_ids[i] and space_id = p_space;
  end loop;
  for i in 1 .. coalesce(array_length(p_messages, 1), 0) loop
    if p_texts[i] is null then
      delete from messages where id = p_messages[i] and space_id = p_space;
    else
      update messages set text = p_texts[i] where id = p_messages[i] and space_id = p_space;
    end if;
  end loop;
  perform set_config('engram.forget', '', true);
end $$;
`;

/**
 * Migration 24 (docs/erasure.md, "Every copy"): the event log holds no words. A recognised
 * correction's CORRECTED event carried the rules' detail as its reason, quoting both values
 * (`home: name: "Zorgtown" -> "Plimbury"`), and kept them after the old memory was forgotten; it
 * names the rule only since. The events written before are rewritten the same way, the one
 * rewrite of the log a migration makes (append-only otherwise: the forget flag, for this
 * transaction only). An explicit correction's reason never quoted anything and stays.
 */
export const EVENT_REASONS_WITHOUT_WORDS_SQL = `
select set_config('engram.forget', 'on', true);
update memory_events set detail = jsonb_set(detail, '{reason}', to_jsonb('recognised by the ' || rule || ' rule'))
  where kind = 'CORRECTED' and rule is not null and rule <> 'explicit' and detail ? 'reason'
    and detail->>'reason' <> 'recognised by the ' || rule || ' rule';
select set_config('engram.forget', '', true);
`;

/** The channel migration 23's trigger notifies on (src/store/pg-erasures.ts). */
export const ERASURES_CHANNEL = 'engram_erasures';
/** Memory ids a notification names at most: 100 of 36 characters stay far below PostgreSQL's 8,000 bytes. */
const IDS_PER_NOTIFICATION = 100;

/**
 * Migration 23 (docs/erasure.md, "Every process"): on a server, a statement that deletes memories
 * (a forget, a sweep, a sealed space's drop) notifies, at its commit, every instance listening on
 * `engram_erasures` of the space and the ids deleted — `{s, ids}`, a hundred ids a notification —
 * so each lets go of what it holds in its process (postings, vectors, texts embedded). Ids too
 * long for one notification, or a space id over 1,000 bytes, send `ids: null` (`s: null`): the
 * listener lets go of the whole space (of everything). A rolled-back delete notifies nothing.
 * PGlite is one process: every forget passes through its one store, which lets go itself.
 */
export const erasureNotifySql = (driver: 'pg' | 'pglite'): string => driver === 'pglite' ? 'select 1;' : `
create or replace function engram_notify_erasures() returns trigger language plpgsql as $$
declare r record; payload text;
begin
  for r in select space_id, array_agg(id order by id) as ids
             from (select space_id, id, (row_number() over (partition by space_id order by id) - 1) / ${IDS_PER_NOTIFICATION} as chunk
                     from gone_memories) g
            group by space_id, chunk loop
    payload := json_build_object('s', r.space_id, 'ids', r.ids)::text;
    if octet_length(payload) > 7900 then
      payload := json_build_object('s', case when octet_length(r.space_id) <= 1000 then r.space_id end, 'ids', null)::text;
    end if;
    perform pg_notify('${ERASURES_CHANNEL}', payload);
  end loop;
  return null;
end $$;
drop trigger if exists memories_erased on memories;
create trigger memories_erased after delete on memories
  referencing old table as gone_memories for each statement execute function engram_notify_erasures();
`;

/**
 * The erasure a forget owes, recorded in the forget's own transaction and cleared by the erasure
 * that went through (src/store/sql-store-base.ts): a process stopped between the two (kill -9, a
 * crash, an erasure still retrying) runs it at its next start, where the words stayed on disk until
 * some later forget. One row at most: when it was last owed.
 */
export const ERASURE_OWED_SQL = `
create table erasure_owed (
  id integer primary key default 1 check (id = 1),
  since timestamptz not null default clock_timestamp()
);
`;
