// Migrations 18 to 20 (src/store/migrations.ts applies them): less work per event and per write.
import type { SqlClient } from './sql-client.js';

/**
 * Migration 18, fewer index entries per memory written (docs/bench-rounds.md, "Fourteenth round"). The
 * GIN index on memory_lexicon.doc serves no query since BM25 reads memory_terms (migration 4), yet
 * each insert added an entry per term to it (and forget's VACUUM FULL rebuilt it). The three links
 * to another memory are null in nearly every row: indexed only where set, they still serve every
 * lookup by them (`= $1`, `= any($1)`, a join, the foreign keys' `on delete set null`), and a new
 * memory or a status change writes no entry for them. memory_state is taken before memory_lexicon,
 * the order every writer takes them in (an instance still on the previous version may be writing),
 * so the migration never waits in a cycle with one; reads of memory_state wait for the three
 * builds (a pass over the table's rows each).
 */
export const LEAN_WRITE_INDEXES_SQL = `
drop index if exists memory_state_superseded_by;
create index memory_state_superseded_by on memory_state(superseded_by) where superseded_by is not null;
drop index if exists memory_state_corrected_by;
create index memory_state_corrected_by on memory_state(corrected_by) where corrected_by is not null;
drop index if exists memory_state_merged_into;
create index memory_state_merged_into on memory_state(merged_into) where merged_into is not null;
drop index if exists memory_lexicon_doc;
`;

/**
 * Migration 19, the events' lookup by memory as a hash index (docs/bench-rounds.md, "Fifteenth round").
 * The only statement that finds events by memory is a memory's history (`eventsOf`:
 * `memory_id = any($1) … order by id`, a few rows per memory, sorted after): it needs equality,
 * which a hash index answers by a bitmap scan, and neither the B-tree's order nor its `id`
 * column. Every event written added a random text key to the B-tree (a descent of text
 * comparisons, a page split now and then; a bulk change of 10,000 memories writes 10,000 of
 * them); a hash index adds a 4-byte hash to its bucket. All the events of one memory share a
 * bucket: a memory with tens of thousands of events (restated that often) would make each of its
 * inserts walk a chain of overflow pages, which no use of the service comes near (its events are
 * one per mention and per status change). Only memory_events is locked (in its own transaction:
 * `migrate`), so the migration waits in no cycle with a writer on the previous version, whichever
 * table that writer took first; reads and writes of events wait for the build (one pass over the
 * events; docs/operations.md, "Upgrades").
 */
export const EVENTS_BY_MEMORY_HASH_SQL = `
drop index if exists memory_events_memory;
create index memory_events_memory on memory_events using hash (memory_id);
`;

/**
 * Migration 20, less work per event written (docs/bench-rounds.md, "Sixteenth round"); a bulk change of
 * 10,000 memories writes 10,000 events, and what they cost is mostly their index entries.
 * - The events are keyed by space: the primary key becomes `(space_id, id)`, which takes the place
 *   of the B-tree `memory_events_space` on the same columns. Every read by space (a cursor's
 *   `space_id = $1 and id > $2 order by id`, the last event id) reads it as before; no statement
 *   reads events by id alone, and `id` stays unique (an identity column), so the key on it alone
 *   was a third index entry per event that nothing read.
 * - The embedded store drops migration 10's notification trigger. It announces events to other
 *   instances LISTENing on a server; an embedded store has one process, which publishes its
 *   events in process (src/graphql/live-events.ts), and migration 14 made the trigger return at
 *   once there. But a statement trigger `referencing new table` has every inserted row copied into
 *   its transition table before it runs, whatever it does. On a server it stays, unchanged.
 * Only memory_events is locked, in a transaction of its own (`migrate`), as for migration 19;
 * reads and writes of events wait for the key's build (one pass over the events, ~2 s a million
 * on the server; docs/operations.md, "Upgrades").
 */
export const leanEventsSql = (driver: SqlClient['driver']): string => `
alter table memory_events drop constraint memory_events_pkey;
drop index if exists memory_events_space;
alter table memory_events add constraint memory_events_pkey primary key (space_id, id);
${driver === 'pglite' ? 'drop trigger if exists memory_events_notify on memory_events;' : ''}
`;
