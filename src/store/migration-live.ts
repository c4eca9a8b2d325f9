// Live events across instances on a server (docs/live-updates.md): the notifications' SQL.
import type { SqlClient } from './sql-client.js';

/** Migration 10's notification of new events, one per space of the statement (migration 14 puts a guard before it). */
export const NOTIFY_EVENTS_LOOP = `  for r in select space_id, max(id) as last, count(*) as n from new_events group by space_id loop
    perform pg_notify('engram_events', json_build_object(
      's', case when octet_length(r.space_id) <= 1000 then r.space_id end, 'last', r.last, 'n', r.n)::text);
  end loop;
`;

/** Migration 14: the notification above, skipped in a session with engram.notify_events = off. */
export const EVENT_NOTIFY_UNHEARD_SQL = `
create or replace function engram_notify_events() returns trigger language plpgsql as $$
declare r record;
begin
  if current_setting('engram.notify_events', true) = 'off' then return null; end if;
${NOTIFY_EVENTS_LOOP}  return null;
end $$;
`;

/**
 * Migration 26 (docs/live-updates.md, "A space dropped"): on a server, deleting a space (a sealed
 * space's drop, `engram_drop_sealed_space`) notifies, at its commit, every instance listening on
 * `engram_events` — the channel of migration 10's new events — with `{s: space, dropped: true}`,
 * so each ends its subscriptions to that space. The drop deletes the space's events and writes
 * none, so nothing else told the other instances: a subscriber there stayed open, silent, for
 * ever. A space id over 1,000 bytes is left out (`s: null`), as migration 10 does: the listener
 * then asks which of the spaces it watches are gone. A rolled-back drop notifies nothing.
 * PGlite is one process: the drop ends the subscriptions in process (src/graphql/pubsub.ts).
 */
export const spaceDroppedNotifySql = (driver: SqlClient['driver']): string => driver === 'pglite' ? 'select 1;' : `
create or replace function engram_notify_space_dropped() returns trigger language plpgsql as $$
begin
  perform pg_notify('engram_events', json_build_object(
    's', case when octet_length(old.id) <= 1000 then old.id end, 'dropped', true)::text);
  return null;
end $$;
drop trigger if exists spaces_dropped_notify on spaces;
create trigger spaces_dropped_notify after delete on spaces
  for each row execute function engram_notify_space_dropped();
`;
