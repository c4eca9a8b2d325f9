/**
 * Occasions: which appointment, reminder, task or event a timed statement speaks of, by the time
 * window the caller gave with it (startsAt / endsAt / dueAt, allDay). The same words at another
 * time are not the same fact:
 * - when the memory's window had closed by the time the new statement was said, it is **another
 *   occasion** ("I have a dentist appointment on Tuesday." said in two weeks): a new memory, the
 *   first left as it was;
 * - when it had not, the person **moved** it (a reschedule): a correction, the new memory
 *   superseding the old, which stays stored and linked;
 * - the same day told **with its time of day** (an all-day window, then a time that day, none of
 *   its times left out) supersedes it the same way: a memory's times never change, so the new
 *   memory is the one that holds the whole of it. Told less precisely, it is the same time: a
 *   restatement.
 * A window given on one side only, or on neither, says nothing: the words decide, as for any
 * statement. Pure: no I/O. See docs/recognition.md, "Times".
 */
import { allDayDate, isTimedType, windowClosesAt } from './cleanup-selection.js';
import type { MemoryType } from './types.js';

export interface TimeWindow {
  startsAt: Date | null;
  endsAt: Date | null;
  dueAt: Date | null;
  allDay: boolean;
}

/** A new statement's window, when it was said, and the space's time zone (an all-day window is a local date). */
export interface SaidWhen {
  window: TimeWindow;
  saidAt: Date;
  timeZone: string;
}

export type Occasion = 'unsaid' | 'same' | 'another' | 'moved' | 'precise';

const FIELDS = ['startsAt', 'endsAt', 'dueAt'] as const;

export const hasTime = (w: TimeWindow): boolean => FIELDS.some((f) => w[f] !== null);

/** A record's window, when it gives a time (undefined otherwise: nothing for the rules to weigh). */
export const timeWindow = (m: TimeWindow): TimeWindow | undefined =>
  hasTime(m) ? { startsAt: m.startsAt, endsAt: m.endsAt, dueAt: m.dueAt, allDay: m.allDay } : undefined;

/** The instant a window is about: its due time, else its start, else its end. */
const keyOf = (w: TimeWindow): Date | null => w.dueAt ?? w.startsAt ?? w.endsAt;

/** Two instants name the same time: to the millisecond, or, when either window is all-day, the same calendar day. */
function sameTime(a: Date, b: Date, byDay: boolean, timeZone: string): boolean {
  if (!byDay) return a.getTime() === b.getTime();
  const x = allDayDate(a, timeZone);
  const y = allDayDate(b, timeZone);
  return x.year === y.year && x.month === y.month && x.day === y.day;
}

/** An instant within a span: to the millisecond, or by calendar day when either window is all-day. */
function within(at: Date, from: Date, to: Date, byDay: boolean, timeZone: string): boolean {
  if (!byDay) return at.getTime() >= from.getTime() && at.getTime() <= to.getTime();
  const day = (d: Date) => { const x = allDayDate(d, timeZone); return x.year * 10_000 + x.month * 100 + x.day; };
  return day(at) >= day(from) && day(at) <= day(to);
}

/**
 * The occasion a new statement of `type` names against a memory of the same type with the window
 * `old`. The times both sides give are compared (a time given on one side only is a detail added,
 * not a disagreement); with none in common, the instants the windows are about.
 */
export function occasion(type: MemoryType, old: TimeWindow, said: SaidWhen, oldSaidAt?: Date): Occasion {
  const next = said.window;
  if (!isTimedType(type) || !hasTime(old) || !hasTime(next)) return 'unsaid';
  const byDay = old.allDay || next.allDay;
  // a time within the memory's span, given as a point ("We are in Spain from the 20th to the 27th." told again at 07:00
  // on the 23rd): a moment of it, not a move
  if (old.startsAt && old.endsAt && next.endsAt === null && keyOf(next) && within(keyOf(next)!, old.startsAt, old.endsAt, byDay, said.timeZone)) return 'same';
  const shared = FIELDS.filter((f) => old[f] !== null && next[f] !== null);
  const differs = shared.length > 0
    ? shared.some((f) => !sameTime(old[f]!, next[f]!, byDay, said.timeZone))
    : !sameTime(keyOf(old)!, keyOf(next)!, byDay, said.timeZone);
  // the same day told with its time of day, none of the old times left out: the new memory holds the whole of it
  // (the old row's times never change); an end or due time added to a time of day is a detail, as above
  if (!differs) return old.allDay && !next.allDay && FIELDS.every((f) => old[f] === null || next[f] !== null) ? 'precise' : 'same';
  // either window closed before the other statement was said (the new one may be remembered late: said first)
  const closed = (w: TimeWindow, at: Date | undefined) => {
    const closes = at ? windowClosesAt(w, said.timeZone) : null;
    return closes !== null && closes.getTime() <= at!.getTime();
  };
  return closed(old, said.saidAt) || closed(next, oldSaidAt) ? 'another' : 'moved';
}

/** How a moved (or more precise) window reads in a correction's detail: the day or instant it was about, before and now. */
export function movedDetail(old: TimeWindow, said: SaidWhen, precise = false): string {
  const at = (w: TimeWindow) => {
    const k = keyOf(w)!;
    if (!w.allDay) return k.toISOString();
    const d = allDayDate(k, said.timeZone);
    return `${d.year}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;
  };
  return `${precise ? 'the same time, told more precisely' : 'the same words, another time'}: ${at(old)} before, ${at(said.window)} now`;
}
