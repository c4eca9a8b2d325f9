/** src/core/occasions.ts, and decide() with the caller's times: the same words at another time. */
import { describe, expect, it } from 'vitest';
import { movedDetail, occasion, type SaidWhen, type TimeWindow } from '../../src/core/occasions.js';
import { decide, type Candidate, type Incoming, type Thresholds } from '../../src/core/recognition.js';
import { normalizeText } from '../../src/core/normalize.js';

const T: Thresholds = { close: 0.875, related: 0.75, topic: 0.65, recallFloor: 0.4 };
const d = (iso: string): Date => new Date(iso);
const win = (o: Partial<TimeWindow>): TimeWindow => ({ startsAt: null, endsAt: null, dueAt: null, allDay: false, ...o });
const said = (w: Partial<TimeWindow>, saidAt: string, timeZone = 'UTC'): SaidWhen => ({ window: win(w), saidAt: d(saidAt), timeZone });

describe('occasion', () => {
  const tuesday = win({ startsAt: d('2026-11-03T15:00:00Z') });

  it('says nothing without a time on both sides, or for an untimed type', () => {
    expect(occasion('APPOINTMENT', win({}), said({ startsAt: d('2026-11-10T15:00:00Z') }, '2026-11-01T09:00:00Z'))).toBe('unsaid');
    expect(occasion('APPOINTMENT', tuesday, said({}, '2026-11-01T09:00:00Z'))).toBe('unsaid');
    expect(occasion('FACT', tuesday, said({ startsAt: d('2026-11-10T15:00:00Z') }, '2026-11-01T09:00:00Z'))).toBe('unsaid');
  });

  it('the same time is the same occasion; a time given on one side only is a detail, not a disagreement', () => {
    expect(occasion('APPOINTMENT', tuesday, said({ startsAt: d('2026-11-03T15:00:00Z') }, '2026-11-02T09:00:00Z'))).toBe('same');
    expect(occasion('APPOINTMENT', tuesday, said({ startsAt: d('2026-11-03T15:00:00Z'), endsAt: d('2026-11-03T16:00:00Z') }, '2026-11-02T09:00:00Z'))).toBe('same');
  });

  it('a window closed before the new statement was said is another occasion; one still open was moved', () => {
    expect(occasion('APPOINTMENT', tuesday, said({ startsAt: d('2026-11-17T15:00:00Z') }, '2026-11-14T09:00:00Z'))).toBe('another');
    expect(occasion('APPOINTMENT', tuesday, said({ startsAt: d('2026-11-05T15:00:00Z') }, '2026-11-02T09:00:00Z'))).toBe('moved');
    expect(occasion('REMINDER', win({ dueAt: d('2026-11-06T09:00:00Z') }), said({ dueAt: d('2026-11-07T09:00:00Z') }, '2026-11-02T09:00:00Z'))).toBe('moved');
  });

  it('told late: the new statement\'s own window closed before the memory was said is another occasion too', () => {
    const later = win({ startsAt: d('2025-03-18T15:00:00Z') });
    // the memory said 03-10 of the 18th; the new one said 03-01 of the 4th (remembered after it)
    expect(occasion('APPOINTMENT', later, said({ startsAt: d('2025-03-04T15:00:00Z') }, '2025-03-01T09:00:00Z'), d('2025-03-10T09:00:00Z'))).toBe('another');
    // without the memory's time of saying, as before: moved
    expect(occasion('APPOINTMENT', later, said({ startsAt: d('2025-03-04T15:00:00Z') }, '2025-03-01T09:00:00Z'))).toBe('moved');
  });

  it('all-day windows are days in the space\'s time zone: another hour that day is the same day', () => {
    const allDay = win({ startsAt: d('2026-11-03T00:00:00Z'), allDay: true });
    expect(occasion('EVENT', allDay, said({ startsAt: d('2026-11-03T19:00:00Z'), allDay: true }, '2026-11-01T09:00:00Z', 'America/New_York'))).toBe('same');
    expect(occasion('EVENT', allDay, said({ startsAt: d('2026-11-04T19:00:00Z') }, '2026-11-01T09:00:00Z', 'America/New_York'))).toBe('moved');
    // the day ends at local midnight: said that evening in New York, the day is not over yet
    expect(occasion('EVENT', allDay, said({ startsAt: d('2026-11-20T00:00:00Z'), allDay: true }, '2026-11-04T02:00:00Z', 'America/New_York'))).toBe('moved');
    expect(occasion('EVENT', allDay, said({ startsAt: d('2026-11-20T00:00:00Z'), allDay: true }, '2026-11-04T06:00:00Z', 'America/New_York'))).toBe('another');
  });

  it('the same day told with its time of day is made precise; told without it, the same', () => {
    const allDay = win({ startsAt: d('2026-11-03T00:00:00Z'), allDay: true });
    const at3 = { startsAt: d('2026-11-03T15:00:00Z') };
    expect(occasion('APPOINTMENT', allDay, said(at3, '2026-11-01T09:00:00Z'))).toBe('precise');
    expect(occasion('APPOINTMENT', win(at3), said({ startsAt: d('2026-11-03T00:00:00Z'), allDay: true }, '2026-11-01T09:00:00Z'))).toBe('same');
    // a due time the memory had is not left out
    expect(occasion('TASK', win({ startsAt: d('2026-11-03T00:00:00Z'), dueAt: d('2026-11-03T00:00:00Z'), allDay: true }), said(at3, '2026-11-01T09:00:00Z'))).toBe('same');
    expect(movedDetail(allDay, said(at3, '2026-11-01T09:00:00Z'), true)).toBe('the same time, told more precisely: 2026-11-03 before, 2026-11-03T15:00:00.000Z now');
  });

  it('a point within the memory\'s span is a moment of it, not a move', () => {
    const trip = win({ startsAt: d('2026-11-20T00:00:00Z'), endsAt: d('2026-11-27T00:00:00Z'), allDay: true });
    expect(occasion('EVENT', trip, said({ startsAt: d('2026-11-23T07:00:00Z') }, '2026-11-01T09:00:00Z'))).toBe('same');
    expect(occasion('EVENT', trip, said({ startsAt: d('2026-11-29T07:00:00Z') }, '2026-11-01T09:00:00Z'))).toBe('moved');
  });

  it('names both times in a moved window\'s detail', () => {
    expect(movedDetail(tuesday, said({ startsAt: d('2026-11-05T15:00:00Z') }, '2026-11-02T09:00:00Z')))
      .toBe('the same words, another time: 2026-11-03T15:00:00.000Z before, 2026-11-05T15:00:00.000Z now');
  });
});

describe('decide with the caller\'s times', () => {
  const text = 'I have a dentist appointment on Tuesday.';
  const incoming = (w: Partial<TimeWindow> | null, saidAt: string, o: Partial<Incoming> = {}): Incoming => ({
    text, normalized: normalizeText(text), type: 'APPOINTMENT', entities: [], themes: [], previousSentence: null, messageId: 'm-new',
    said: w ? said(w, saidAt) : undefined, ...o,
  });
  const cand = (o: Partial<Candidate> = {}): Candidate => ({
    id: 'old', text, normalized: normalizeText(text), type: 'APPOINTMENT', entities: [], themes: [], messageId: 'm-old', score: 1,
    window: win({ startsAt: d('2026-11-03T15:00:00Z') }), ...o,
  });

  it('the same words at the same time, or without a time, reinforce', () => {
    expect(decide(incoming({ startsAt: d('2026-11-03T15:00:00Z') }, '2026-11-02T09:00:00Z'), [cand()], T)).toMatchObject({ action: 'reinforce', tier: 'EXACT' });
    expect(decide(incoming(null, '2026-11-20T09:00:00Z'), [cand()], T)).toMatchObject({ action: 'reinforce', tier: 'EXACT' });
    expect(decide(incoming({ startsAt: d('2026-11-17T15:00:00Z') }, '2026-11-14T09:00:00Z'), [cand({ window: undefined })], T)).toMatchObject({ action: 'reinforce' });
  });

  it('the same words, the old time past: another appointment, a new memory', () => {
    const r = decide(incoming({ startsAt: d('2026-11-17T15:00:00Z') }, '2026-11-14T09:00:00Z'), [cand()], T);
    expect(r.action).toBe('create');
    expect(r.considered).toEqual([{ id: 'old', score: 1, relation: 'distinct', rule: 'another-occasion' }]);
  });

  it('the same words, the old time still ahead: moved, a correction (new-time)', () => {
    const r = decide(incoming({ startsAt: d('2026-11-05T15:00:00Z') }, '2026-11-02T09:00:00Z'), [cand()], T);
    expect(r).toMatchObject({ action: 'correct', targetId: 'old', rule: 'new-time' });
  });

  it('a close wording at another time is moved too; an unrelated appointment at another time is not', () => {
    const close = cand({ text: 'I have a dentist appointment Tuesday.', normalized: normalizeText('I have a dentist appointment Tuesday.'), score: 0.95 });
    expect(decide(incoming({ startsAt: d('2026-11-05T15:00:00Z') }, '2026-11-02T09:00:00Z'), [close], T)).toMatchObject({ action: 'correct', rule: 'new-time' });
    const other = cand({ text: 'The boiler is serviced next month.', normalized: normalizeText('The boiler is serviced next month.'), score: 0.3 });
    expect(decide(incoming({ startsAt: d('2026-11-05T15:00:00Z') }, '2026-11-02T09:00:00Z'), [other], T).action).toBe('create');
  });

  it('an all-day appointment told again with its time that day: a correction (precise-time) that holds the time', () => {
    const allDay = cand({ window: win({ startsAt: d('2026-11-03T00:00:00Z'), allDay: true }) });
    expect(decide(incoming({ startsAt: d('2026-11-03T15:00:00Z') }, '2026-11-02T09:00:00Z'), [allDay], T)).toMatchObject({ action: 'correct', targetId: 'old', rule: 'precise-time' });
    // the other way round, the time of day kept: a restatement
    expect(decide(incoming({ startsAt: d('2026-11-03T00:00:00Z'), allDay: true }, '2026-11-02T09:00:00Z'), [cand()], T)).toMatchObject({ action: 'reinforce', tier: 'EXACT' });
  });

  it('another type, or a fact, is not weighed by its times', () => {
    const fact = cand({ type: 'FACT' });
    expect(decide(incoming({ startsAt: d('2026-11-17T15:00:00Z') }, '2026-11-14T09:00:00Z', { type: 'FACT' }), [fact], T)).toMatchObject({ action: 'reinforce' });
  });
});
