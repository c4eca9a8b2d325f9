// Row shapes and SQL fragments shared by the SqlStore's parts (sql-store*.ts).
import type { MemoryEvent, MemoryHead, MemoryRecord, Mention, Message, NewEvent, Space } from '../ports/memory-store.js';
import { parseTimestamptz } from './pg-timestamp.js';

export type Row = Record<string, any>;

export const MEMORY_COLUMNS = `m.id, m.seq, m.space_id, m.kind, m.type, m.quote, m.normalized, m.conversation_id, m.message_id,
  m.context, m.basis, m.said_at, m.created_at, m.starts_at, m.ends_at, m.due_at, m.all_day,
  s.status, s.mention_count, s.recall_count, s.last_mentioned_at, s.importance, s.valence, s.entities, s.themes,
  s.tags, s.superseded_by, s.corrected_by, s.merged_into, s.embedding_status, s.review, s.resolution, s.resolved_at,
  s.status_changed_at`;

/** MEMORY_COLUMNS without the message's words (`context`, `basis`): a `MemoryHead`. */
export const HEAD_COLUMNS = MEMORY_COLUMNS.replace('m.context, m.basis, ', '');

export const FROM_MEMORY = `from memories m join memory_state s on s.memory_id = m.id`;

/** MEMORY_COLUMNS' names in order (the keys `toMemory` reads). */
export const MEMORY_COLUMN_NAMES: readonly string[] = MEMORY_COLUMNS.split(',').map((c) => c.trim().replace(/^[ms]\./, ''));

/** HEAD_COLUMNS' names in order (the keys `toMemoryHead` reads). */
export const HEAD_COLUMN_NAMES: readonly string[] = MEMORY_COLUMN_NAMES.filter((n) => n !== 'context' && n !== 'basis');

/**
 * Rows of `alias` as one JSON text (in `orderBy`'s order if given), each row an array of the columns `names` in order (read back by
 * `fromJsonRows`): the driver passes one value instead of parsing every column of every row, and
 * the text carries no column name per row (json_agg of whole rows repeats all 35 names in each).
 */
export const jsonRows = (alias: string, names: readonly string[], orderBy?: string): string =>
  `json_agg(json_build_array(${names.map((n) => `${alias}.${n}`).join(', ')})${orderBy ? ` order by ${orderBy}` : ''})::text`;

/** The rows of a `jsonRows` text (null: no rows) as objects keyed by `names`. */
export function fromJsonRows(text: string | null | undefined, names: readonly string[]): Row[] {
  const rows = (text ? JSON.parse(text) : []) as unknown[][];
  return rows.map((a) => {
    const r: Row = {};
    for (let i = 0; i < names.length; i++) r[names[i]!] = a[i];
    return r;
  });
}

export function date(v: unknown): Date {
  return v instanceof Date ? v : parseTimestamptz(String(v));
}
export function dateOrNull(v: unknown): Date | null {
  return v == null ? null : date(v);
}
export function num(v: unknown): number | null {
  return v == null ? null : Number(v);
}
export function arr(v: unknown): string[] {
  if (Array.isArray(v)) return v.map(String);
  if (typeof v === 'string' && v.startsWith('{')) {
    // Text form of a text[] when a driver does not parse arrays.
    return v.slice(1, -1).split(',').filter(Boolean).map((s) => s.replace(/^"|"$/g, ''));
  }
  return [];
}

export function toMemory(r: Row): MemoryRecord {
  return { ...toMemoryHead(r), context: r.context ?? null, basis: r.basis ?? null };
}

export function toMemoryHead(r: Row): MemoryHead {
  return {
    id: r.id, seq: Number(r.seq), spaceId: r.space_id, kind: r.kind, type: r.type, quote: r.quote,
    normalized: r.normalized, conversationId: r.conversation_id ?? null, messageId: r.message_id ?? null,
    saidAt: date(r.said_at), createdAt: date(r.created_at),
    startsAt: dateOrNull(r.starts_at), endsAt: dateOrNull(r.ends_at), dueAt: dateOrNull(r.due_at), allDay: !!r.all_day,
    status: r.status, mentionCount: Number(r.mention_count), recallCount: Number(r.recall_count),
    lastMentionedAt: date(r.last_mentioned_at), importance: num(r.importance), valence: num(r.valence),
    entities: arr(r.entities), themes: arr(r.themes), tags: arr(r.tags), supersededBy: r.superseded_by ?? null,
    correctedBy: r.corrected_by ?? null, mergedInto: r.merged_into ?? null, embeddingStatus: r.embedding_status,
    review: r.review ?? null, resolution: r.resolution ?? null, resolvedAt: dateOrNull(r.resolved_at),
    statusChangedAt: dateOrNull(r.status_changed_at),
  };
}

export function toMention(r: Row): Mention {
  return {
    id: r.id, memoryId: r.memory_id, quote: r.quote, conversationId: r.conversation_id ?? null,
    messageId: r.message_id ?? null, saidAt: date(r.said_at), tier: r.tier, score: num(r.score),
    createdAt: date(r.created_at),
  };
}

export function toEvent(r: Row): MemoryEvent {
  return {
    id: Number(r.id), spaceId: r.space_id, memoryId: r.memory_id ?? null, kind: r.kind, actor: r.actor,
    tier: r.tier ?? null, score: num(r.score), rule: r.rule ?? null, relatedId: r.related_id ?? null,
    detail: typeof r.detail === 'string' ? JSON.parse(r.detail) : (r.detail ?? null), at: date(r.at),
  };
}

export function toSpace(r: Row): Space {
  return { id: r.id, name: r.name, sealed: !!r.sealed, timeZone: r.time_zone, createdAt: date(r.created_at) };
}

export function toMessage(r: Row): Message {
  return {
    id: r.id, conversationId: r.conversation_id, spaceId: r.space_id, role: r.role, text: r.text, at: date(r.at),
  };
}

/** `insert into memory_events …` of these events in order, their columns as parameters added through `p`. */
export function EVENTS_INSERT(events: NewEvent[], p: (v: unknown) => string): string {
  return `insert into memory_events (space_id, memory_id, kind, actor, tier, score, rule, related_id, detail, at)
       select * from unnest(${p(events.map((e) => e.spaceId))}::text[], ${p(events.map((e) => e.memoryId))}::text[],
         ${p(events.map((e) => e.kind))}::text[], ${p(events.map((e) => e.actor))}::text[], ${p(events.map((e) => e.tier))}::text[],
         ${p(events.map((e) => e.score))}::real[], ${p(events.map((e) => e.rule))}::text[], ${p(events.map((e) => e.relatedId))}::text[],
         ${p(events.map((e) => (e.detail ? JSON.stringify(e.detail) : null)))}::jsonb[], ${p(events.map((e) => e.at ?? new Date()))}::timestamptz[])`;
}

/** The messages memories $1 of space $2 were said in (their own and their mentions'): what forget deletes. */
export const MESSAGES_OF_MEMORIES = `select message_id from mentions where memory_id = any($1::text[]) and space_id = $2 and message_id is not null
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
export function groupInOrder<T>(keys: readonly string[], items: T[], keyOf: (t: T) => string): T[][] {
  const by = new Map<string, T[]>();
  for (const it of items) {
    const k = keyOf(it);
    const list = by.get(k);
    if (list) list.push(it);
    else by.set(k, [it]);
  }
  return keys.map((k) => by.get(k) ?? []);
}
