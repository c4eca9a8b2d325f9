import { describe, expect, it } from 'vitest';
import {
  isPastOrResolved, selectForCleanup, startOfLocalDay, windowClosesAt, type SweepItem,
} from '../../src/core/cleanup-selection.js';

const item = (o: Partial<SweepItem> & { id: string }): SweepItem => ({
  type: 'APPOINTMENT', status: 'ACTIVE', startsAt: null, endsAt: null, dueAt: null, allDay: false, resolution: null, mergedInto: null, ...o,
});
const d = (s: string) => new Date(s);

describe('startOfLocalDay', () => {
  it('finds local midnight across time zones and daylight-saving changes', () => {
    expect(startOfLocalDay(2026, 3, 10, 'UTC').toISOString()).toBe('2026-03-10T00:00:00.000Z');
    expect(startOfLocalDay(2026, 3, 10, 'America/New_York').toISOString()).toBe('2026-03-10T04:00:00.000Z'); // EDT since Mar 8
    expect(startOfLocalDay(2026, 3, 8, 'America/New_York').toISOString()).toBe('2026-03-08T05:00:00.000Z'); // still EST at midnight
    expect(startOfLocalDay(2026, 3, 29, 'Europe/London').toISOString()).toBe('2026-03-29T00:00:00.000Z');
    expect(startOfLocalDay(2026, 3, 30, 'Europe/London').toISOString()).toBe('2026-03-29T23:00:00.000Z');
    expect(startOfLocalDay(2026, 3, 10, 'Asia/Tokyo').toISOString()).toBe('2026-03-09T15:00:00.000Z');
    expect(startOfLocalDay(2027, 1, 1, 'Asia/Kolkata').toISOString()).toBe('2026-12-31T18:30:00.000Z');
  });
});

describe('all-day windows close at the end of their day in the space time zone', () => {
  const ny = 'America/New_York';
  it('a bare date (midnight UTC) is read as that date, closing at local midnight after it', () => {
    const a = item({ id: 'a', allDay: true, startsAt: d('2026-03-10T00:00:00Z') });
    expect(windowClosesAt(a, ny)!.toISOString()).toBe('2026-03-11T04:00:00.000Z');
    // 21:00 in New York on the 10th: midnight UTC and the start have passed, the day has not.
    expect(isPastOrResolved(a, d('2026-03-11T01:00:00Z'), ny)).toBe(false);
    expect(isPastOrResolved(a, d('2026-03-11T03:59:59Z'), ny)).toBe(false);
    expect(isPastOrResolved(a, d('2026-03-11T04:00:00Z'), ny)).toBe(true);
  });
  it('a local-midnight instant is read in the space zone', () => {
    const tokyo = item({ id: 't', allDay: true, startsAt: d('2026-03-09T15:00:00Z') }); // 00:00 Mar 10 in Tokyo
    expect(isPastOrResolved(tokyo, d('2026-03-10T14:59:00Z'), 'Asia/Tokyo')).toBe(false);
    expect(isPastOrResolved(tokyo, d('2026-03-10T15:00:00Z'), 'Asia/Tokyo')).toBe(true);
    const nyLocal = item({ id: 'n', allDay: true, startsAt: d('2026-03-10T04:00:00Z') });
    expect(windowClosesAt(nyLocal, ny)!.toISOString()).toBe('2026-03-11T04:00:00.000Z');
  });
  it('a multi-day all-day item closes at the end of its last day', () => {
    const a = item({ id: 'a', allDay: true, startsAt: d('2026-07-01T00:00:00Z'), endsAt: d('2026-07-03T00:00:00Z') });
    expect(windowClosesAt(a, 'Europe/Paris')!.toISOString()).toBe('2026-07-03T22:00:00.000Z');
  });
  it('a timed item closes at its end, due time or start', () => {
    expect(windowClosesAt(item({ id: 'x', startsAt: d('2026-03-10T09:00:00Z'), endsAt: d('2026-03-10T10:00:00Z') }), ny)!.toISOString())
      .toBe('2026-03-10T10:00:00.000Z');
    expect(windowClosesAt(item({ id: 'x', type: 'TASK', dueAt: d('2026-03-10T17:00:00Z') }), ny)!.toISOString()).toBe('2026-03-10T17:00:00.000Z');
    expect(windowClosesAt(item({ id: 'x', type: 'MEMO' }), ny)).toBeNull();
  });
});

describe('selectForCleanup', () => {
  const now = d('2026-03-10T12:00:00Z');
  const items: SweepItem[] = [
    item({ id: 'past', startsAt: d('2026-03-09T09:00:00Z') }),
    item({ id: 'upcoming', startsAt: d('2026-03-12T09:00:00Z') }),
    item({ id: 'today-all-day', allDay: true, startsAt: d('2026-03-10T00:00:00Z') }),
    item({ id: 'muted-upcoming', status: 'MUTED', startsAt: d('2026-03-12T09:00:00Z') }),
    item({ id: 'done-upcoming', type: 'TASK', dueAt: d('2026-03-20T09:00:00Z'), resolution: 'DONE' }),
    item({ id: 'task-done-this-morning', type: 'TASK', resolution: 'DONE' }),
    item({ id: 'task-open', type: 'TASK', dueAt: d('2026-03-10T18:00:00Z') }),
    item({ id: 'memo', type: 'MEMO' }),
    item({ id: 'memo-retracted', type: 'MEMO', status: 'RETRACTED' }),
    item({ id: 'fact', type: 'FACT' }),
    item({ id: 'merged-into-past', type: 'FACT', status: 'MERGED', mergedInto: 'past' }),
    item({ id: 'merged-into-merged', type: 'FACT', status: 'MERGED', mergedInto: 'merged-into-past' }),
  ];

  it('PAST_OR_RESOLVED takes closed windows, resolutions and every terminal state', () => {
    const s = selectForCleanup(items, ['APPOINTMENT', 'TASK', 'MEMO'], 'PAST_OR_RESOLVED', now, 'America/New_York');
    expect(s.ids.sort()).toEqual(
      ['past', 'muted-upcoming', 'done-upcoming', 'task-done-this-morning', 'memo-retracted', 'merged-into-past', 'merged-into-merged'].sort(),
    );
    expect(s.counts).toEqual({ APPOINTMENT: 2, TASK: 2, MEMO: 1, FACT: 2 });
  });

  it('EVERYTHING takes every memory of the categories, upcoming and undated included', () => {
    const s = selectForCleanup(items, ['APPOINTMENT', 'MEMO'], 'EVERYTHING', now, 'UTC');
    expect(s.ids.sort()).toEqual(
      ['past', 'upcoming', 'today-all-day', 'muted-upcoming', 'memo', 'memo-retracted', 'merged-into-past', 'merged-into-merged'].sort(),
    );
    expect(s.counts.APPOINTMENT).toBe(4);
    expect(s.counts.MEMO).toBe(2);
  });

  it('takes nothing of a type not named', () => {
    expect(selectForCleanup(items, ['REMINDER'], 'EVERYTHING', now, 'UTC').ids).toEqual([]);
  });
});
