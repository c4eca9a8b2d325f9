/**
 * Migration 5 (docs/append-only.md, docs/erasure.md): append-only enforced by the
 * database, not by the app's good manners.
 * - The content triggers let a row be rewritten or deleted only inside forget for good,
 *   and only when the statement runs as the tables' owner: the service role (no owner,
 *   no superuser) gets nowhere by setting `engram.forget` itself.
 * - Forget for good and dropping a sealed space go through SECURITY DEFINER functions
 *   owned by the migration (owner) role. `engram_forget` deletes exactly the memories it
 *   is given, and may rewrite a message or a context only by removing words from it
 *   (each removed run becomes the redaction mark).
 * - The audit log refuses UPDATE and DELETE (a sealed space's drop aside); a revoked
 *   token stays revoked.
 * - ANALYZE keeps no samples of content columns (pg_statistic would otherwise hold
 *   sentences of memories long forgotten).
 */
import { REDACTION_MARK } from '../core/scrub.js';

export const PRIVILEGES_SQL = `
create or replace function engram_may_rewrite(rel oid) returns boolean language sql stable as $$
  select coalesce(current_setting('engram.forget', true), '') = 'on'
    and exists (select 1 from pg_class c where c.oid = rel and pg_has_role(current_user, c.relowner, 'MEMBER'))
$$;

create or replace function engram_refuse_update() returns trigger language plpgsql as $$
begin
  if engram_may_rewrite(tg_relid) then return new; end if;
  raise exception 'append-only: % rows cannot be updated', tg_table_name using errcode = 'P0001';
end $$;

create or replace function engram_refuse_delete() returns trigger language plpgsql as $$
begin
  if engram_may_rewrite(tg_relid) then return old; end if;
  raise exception 'append-only: % rows can only be deleted by forget-for-good', tg_table_name using errcode = 'P0001';
end $$;

create trigger memory_events_no_update before update on memory_events for each row execute function engram_refuse_update();
create trigger memory_events_no_delete before delete on memory_events for each row execute function engram_refuse_delete();
create trigger memory_events_no_truncate before truncate on memory_events for each statement execute function engram_refuse_truncate();

create or replace function engram_token_revocation_final() returns trigger language plpgsql as $$
begin
  if old.revoked_at is not null then
    raise exception 'append-only: a revoked token stays revoked' using errcode = 'P0001';
  end if;
  if new.id is distinct from old.id or new.hash is distinct from old.hash or new.role is distinct from old.role
     or new.space_id is distinct from old.space_id then
    raise exception 'append-only: a token can only be revoked' using errcode = 'P0001';
  end if;
  return new;
end $$;
create trigger tokens_revocation_final before update on tokens for each row execute function engram_token_revocation_final();

-- true when every word of the new text (the redaction marks aside) appears in the old
-- one in the same order: the new text only removes words
create or replace function engram_only_removes(old_text text, new_text text) returns boolean language plpgsql immutable as $$
declare
  o text[] := regexp_split_to_array(btrim(coalesce(old_text, '')), '\\s+');
  n text[] := regexp_split_to_array(btrim(replace(new_text, '${REDACTION_MARK}', ' ')), '\\s+');
  i int := 1;
  w text;
begin
  foreach w in array n loop
    continue when w = '';
    while i <= coalesce(array_length(o, 1), 0) and o[i] <> w loop i := i + 1; end loop;
    if i > coalesce(array_length(o, 1), 0) then return false; end if;
    i := i + 1;
  end loop;
  return true;
end $$;

create or replace function engram_forget(p_space text, p_ids text[], p_messages text[], p_texts text[],
                                         p_context_ids text[], p_contexts text[])
returns setof text language plpgsql security definer set search_path from current as $$
declare
  i int;
  old_text text;
begin
  for i in 1 .. coalesce(array_length(p_messages, 1), 0) loop
    if not exists (select 1 from mentions x where x.message_id = p_messages[i] and x.memory_id = any(p_ids) and x.space_id = p_space)
       and not exists (select 1 from memories m where m.message_id = p_messages[i] and m.id = any(p_ids) and m.space_id = p_space) then
      raise exception 'forget: message % was not said by a memory being forgotten', p_messages[i] using errcode = 'P0001';
    end if;
    select m.text into old_text from messages m where m.id = p_messages[i] and m.space_id = p_space;
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

create or replace function engram_drop_sealed_space(p_space text) returns boolean language plpgsql security definer
set search_path from current as $$
begin
  if not exists (select 1 from spaces where id = p_space and sealed) then
    raise exception 'only a sealed space can be dropped as a whole' using errcode = 'P0001';
  end if;
  perform set_config('engram.forget', 'on', true);
  delete from memory_events where space_id = p_space;
  delete from vector_outbox where memory_id in (select id from memories where space_id = p_space);
  delete from spaces where id = p_space;
  perform set_config('engram.forget', '', true);
  return true;
end $$;

revoke all on function engram_forget(text, text[], text[], text[], text[], text[]) from public;
revoke all on function engram_drop_sealed_space(text) from public;

alter table messages alter column text set statistics 0;
alter table memories alter column quote set statistics 0;
alter table memories alter column normalized set statistics 0;
alter table memories alter column context set statistics 0;
alter table memories alter column basis set statistics 0;
alter table mentions alter column quote set statistics 0;
alter table memory_lexicon alter column doc set statistics 0;
alter table memory_terms alter column term set statistics 0;
alter table memory_state alter column entities set statistics 0;
alter table memory_state alter column themes set statistics 0;
alter table memory_state alter column tags set statistics 0;
`;

/**
 * What the service role may do (run by the owner at start when DATABASE_OWNER_URL names
 * another role than DATABASE_URL): read everything; insert; update only what changes
 * (memory_state, the lexicon and postings, vectors, the outbox, a space's name and time
 * zone, a token's revocation, a merge's undo); delete only derived rows (vectors,
 * postings, outbox); forget and drop a sealed space through the functions above.
 * No UPDATE of memories, mentions or messages, no DELETE of content or of the audit log,
 * no TRUNCATE, no trigger or table changes (the owner's alone).
 */
export function serviceGrantsSql(role: string, schema: string): string {
  const ident = (x: string) => `"${x.replace(/"/g, '""')}"`;
  const r = ident(role);
  const sc = ident(schema);
  return `
grant usage on schema ${sc} to ${r};
grant select on all tables in schema ${sc} to ${r};
grant usage, select on all sequences in schema ${sc} to ${r};
grant insert on spaces, conversations, messages, memories, memory_state, mentions, memory_vectors, memory_lexicon,
  memory_events, tokens, vector_outbox, memory_merges, memory_terms, lexicon_stats, lexicon_df, memory_vector_bits to ${r};
grant update on memory_state, memory_lexicon, memory_vectors, memory_terms, lexicon_stats, lexicon_df, vector_outbox, memory_vector_bits to ${r};
grant update (name, time_zone) on spaces to ${r};
grant update (revoked_at) on tokens to ${r};
grant update (undone_at) on memory_merges to ${r};
grant delete on memory_vectors, memory_terms, lexicon_stats, lexicon_df, vector_outbox, memory_vector_bits to ${r};
grant insert, update, delete on erasure_owed to ${r};
grant execute on function engram_forget(text, text[], text[], text[], text[], text[]) to ${r};
grant execute on function engram_drop_sealed_space(text) to ${r};
`;
}
