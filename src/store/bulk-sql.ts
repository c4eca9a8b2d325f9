import type { MemoryEvent } from '../ports/memory-store.js';
import type { MemoryStatus } from '../core/types.js';
import type { Queryable } from './sql-client.js';

/**
 * A bulk status change and its events as one set-based statement: the rows that
 * change (of the space, in one of the `from` statuses) and one event per changed
 * row, written by one data-modifying CTE. Returns the changed ids and the events.
 */
export async function setStatusLogged(
  q: Queryable, spaceId: string, ids: readonly string[], status: MemoryStatus, from: MemoryStatus[],
  event: { kind: string; actor: string },
): Promise<{ changed: string[]; events: MemoryEvent[] }> {
  if (ids.length === 0) return { changed: [], events: [] };
  const r = await q.query<{ id: string | number; memory_id: string; at: Date | string }>(
    `with changed as (
       update memory_state set status = $3, status_changed_at = now(), updated_at = now()
       where memory_id = any($1::text[]) and space_id = $2 and status = any($4::text[])
       returning memory_id
     )
     insert into memory_events (space_id, memory_id, kind, actor)
     select $2, memory_id, $5, $6 from changed
     returning id, memory_id, at`,
    [ids, spaceId, status, from, event.kind, event.actor],
  );
  const events: MemoryEvent[] = r.rows.map((x) => ({
    id: Number(x.id), spaceId, memoryId: x.memory_id, kind: event.kind, actor: event.actor, tier: null, score: null,
    rule: null, relatedId: null, detail: null, at: x.at instanceof Date ? x.at : new Date(String(x.at)),
  })).sort((a, b) => a.id - b.id);
  return { changed: events.map((e) => e.memoryId!), events };
}
