/**
 * Cleanup selection: which memories a sweep of some categories takes. Pure: the
 * caller supplies the rows, the space's time zone and the current time.
 * See docs/cleanup.md.
 */
import type { MemoryStatus, MemoryType } from './types.js';

export type CleanupScope = 'PAST_OR_RESOLVED' | 'EVERYTHING';

/** Types whose memories carry a time window (startsAt / endsAt / dueAt, allDay) and a resolution. */
export const TIMED_TYPES: readonly MemoryType[] = ['APPOINTMENT', 'REMINDER', 'TASK', 'EVENT'];

export function isTimedType(t: MemoryType): boolean {
  return TIMED_TYPES.includes(t);
}

/** What the selection needs to know of one memory. */
export interface SweepItem {
  id: string;
  type: MemoryType;
  status: MemoryStatus;
  startsAt: Date | null;
  endsAt: Date | null;
  dueAt: Date | null;
  allDay: boolean;
  resolution: 'DONE' | 'CANCELLED' | null;
  /** The reference this memory was merged into (consolidation), if any. */
  mergedInto: string | null;
}

export interface SweepSelection {
  ids: string[];
  /** Per type, how many memories the sweep takes (types with none are absent). */
  counts: Partial<Record<MemoryType, number>>;
}

/** Local calendar date of an instant in a time zone. */
export function localDate(at: Date, timeZone: string): { year: number; month: number; day: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  return { year: get('year'), month: get('month'), day: get('day') };
}

/** Offset of a time zone at an instant, in milliseconds (local wall time minus UTC). */
function offsetAt(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const get = (t: string) => Number(parts.find((p) => p.type === t)!.value);
  const wall = Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second'));
  return wall - Math.floor(at.getTime() / 1000) * 1000;
}

/**
 * The instant local midnight of a calendar date begins in a time zone. Two passes
 * settle the offset across a daylight-saving change; a midnight that does not
 * exist (clocks jump at 00:00) resolves to the first instant after the gap.
 */
export function startOfLocalDay(year: number, month: number, day: number, timeZone: string): Date {
  const wall = Date.UTC(year, month - 1, day);
  let t = wall - offsetAt(new Date(wall), timeZone);
  t = wall - offsetAt(new Date(t), timeZone);
  return new Date(t);
}

/**
 * The calendar day of an all-day item's date-time: a bare date sent as midnight UTC
 * (as calendars send all-day dates) is that UTC date; any other instant (local
 * midnight, or a time within the day) is read in the space's time zone.
 */
export function allDayDate(at: Date, timeZone: string): { year: number; month: number; day: number } {
  if (at.getUTCHours() === 0 && at.getUTCMinutes() === 0 && at.getUTCSeconds() === 0 && at.getUTCMilliseconds() === 0) {
    return { year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() };
  }
  return localDate(at, timeZone);
}

/**
 * When an item's window closes: for an all-day item, the end of its (last) day in
 * the space's time zone — never midnight UTC, never its start; otherwise its end,
 * due time or start, the first present. Null for an undated item.
 */
export function windowClosesAt(item: Pick<SweepItem, 'startsAt' | 'endsAt' | 'dueAt' | 'allDay'>, timeZone: string): Date | null {
  const last = item.endsAt ?? item.dueAt ?? item.startsAt;
  if (!last) return null;
  if (!item.allDay) return last;
  const d = allDayDate(last, timeZone);
  // Date.UTC normalises day + 1 across month and year ends.
  const next = new Date(Date.UTC(d.year, d.month - 1, d.day + 1));
  return startOfLocalDay(next.getUTCFullYear(), next.getUTCMonth() + 1, next.getUTCDate(), timeZone);
}

/** Past or resolved: resolved (done or cancelled), in any state but ACTIVE, or its window has closed. */
export function isPastOrResolved(item: SweepItem, now: Date, timeZone: string): boolean {
  if (item.resolution) return true;
  if (item.status !== 'ACTIVE') return true;
  const closes = windowClosesAt(item, timeZone);
  return closes !== null && closes.getTime() <= now.getTime();
}

/**
 * Selects what a sweep deletes among `items` (all memories of the space). Memories
 * merged into a selected memory go with it (their wordings are part of it), even
 * when their own type is not among `categories`.
 */
export function selectForCleanup(
  items: readonly SweepItem[], categories: readonly MemoryType[], scope: CleanupScope, now: Date, timeZone: string,
): SweepSelection {
  const wanted = new Set(categories);
  const chosen = new Set<string>();
  for (const it of items) {
    if (!wanted.has(it.type)) continue;
    if (scope === 'EVERYTHING' || isPastOrResolved(it, now, timeZone)) chosen.add(it.id);
  }
  // Merged descendants of a chosen memory, to a fixed point (merges can nest).
  const byInto = new Map<string, SweepItem[]>();
  for (const it of items) {
    if (it.mergedInto && it.status === 'MERGED') {
      const list = byInto.get(it.mergedInto);
      if (list) list.push(it);
      else byInto.set(it.mergedInto, [it]);
    }
  }
  const queue = [...chosen];
  while (queue.length) {
    const id = queue.pop()!;
    for (const child of byInto.get(id) ?? []) {
      if (chosen.has(child.id)) continue;
      chosen.add(child.id);
      queue.push(child.id);
    }
  }
  const counts: Partial<Record<MemoryType, number>> = {};
  const ids: string[] = [];
  for (const it of items) {
    if (!chosen.has(it.id)) continue;
    ids.push(it.id);
    counts[it.type] = (counts[it.type] ?? 0) + 1;
  }
  return { ids, counts };
}
