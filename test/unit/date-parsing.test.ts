/** The DateTime scalar's input and PGlite's timestamps, field by field (docs/limits.md). */
import { GraphQLError } from 'graphql';
import { describe, expect, it } from 'vitest';
import { parseDateTime } from '../../src/graphql/date-time.js';
import { parseTimestamptz } from '../../src/store/pg-timestamp.js';

const refusal = (text: unknown) => {
  try {
    parseDateTime(text);
  } catch (e) {
    return e as GraphQLError;
  }
  throw new Error(`${String(text)} was accepted`);
};

describe('parseDateTime', () => {
  it('reads ISO-8601 dates and date-times, UTC without an offset, every year 0000-9999', () => {
    expect(parseDateTime('2026-09-21T10:00:00Z').toISOString()).toBe('2026-09-21T10:00:00.000Z');
    expect(parseDateTime('2026-09-21T10:00:00.123456+02:00').toISOString()).toBe('2026-09-21T08:00:00.123Z');
    expect(parseDateTime('2026-09-21T10:00-0530').toISOString()).toBe('2026-09-21T15:30:00.000Z');
    expect(parseDateTime('2026-09-21').toISOString()).toBe('2026-09-21T00:00:00.000Z');
    expect(parseDateTime('2026-09-21 10:00:00').toISOString()).toBe('2026-09-21T10:00:00.000Z');
    expect(parseDateTime('0001-06-15T00:00:00Z').toISOString()).toBe('0001-06-15T00:00:00.000Z');
    expect(parseDateTime('0050-06-15T00:00:00Z').getUTCFullYear()).toBe(50);
    expect(parseDateTime('0000-01-01T00:00:00Z').getUTCFullYear()).toBe(0);
    expect(parseDateTime('2024-02-29T00:00:00Z').toISOString()).toBe('2024-02-29T00:00:00.000Z');
    expect(parseDateTime('2000-02-29').getUTCDate()).toBe(29);
  });

  it('refuses a day, month, hour, minute or second not on the calendar, naming it', () => {
    for (const [text, field] of [['2026-02-30T00:00:00Z', 'day'], ['2026-02-29', 'day'], ['1900-02-29', 'day'], ['2026-06-31', 'day'],
      ['2026-06-00', 'day'], ['2026-13-01', 'month'], ['2026-01-01T25:00:00Z', 'hour'], ['2026-01-01T00:61:00Z', 'minute'],
      ['2026-01-01T00:00:60Z', 'second'], ['2026-01-01T00:00:00+25:00', 'offset']] as const) {
      const e = refusal(text);
      expect(e.extensions, text).toMatchObject({ code: 'INVALID_INPUT', dateField: field });
      expect(e.message, text).toContain(field);
    }
  });

  it('refuses other forms and non-strings', () => {
    for (const v of ['yesterday', '', 'March 7 2026', '10000-01-01T00:00:00Z', '2026-9-1', '2026-01-01Z', 12, null]) {
      expect(refusal(v).extensions.code).toBe('INVALID_INPUT');
    }
  });
});

describe('parseTimestamptz (PGlite text form)', () => {
  it('reads years under 100 as themselves', () => {
    expect(parseTimestamptz('0001-06-15 00:00:00+00').toISOString()).toBe('0001-06-15T00:00:00.000Z');
    expect(parseTimestamptz('0012-03-04 05:06:07.123456+00').toISOString()).toBe('0012-03-04T05:06:07.123Z');
    expect(parseTimestamptz('0050-06-14 22:00:00+00').toISOString()).toBe('0050-06-14T22:00:00.000Z');
  });

  it('reads offsets, fractions, JSON forms and BC', () => {
    expect(parseTimestamptz('2026-09-21 10:00:00+02').toISOString()).toBe('2026-09-21T08:00:00.000Z');
    expect(parseTimestamptz('1900-01-01 00:00:00+00:09:21').toISOString()).toBe('1899-12-31T23:50:39.000Z');
    expect(parseTimestamptz('0001-06-15T00:00:00.5+00:00').toISOString()).toBe('0001-06-15T00:00:00.500Z');
    expect(parseTimestamptz('9999-12-31 23:59:59.999+00').toISOString()).toBe('9999-12-31T23:59:59.999Z');
    expect(parseTimestamptz('0001-01-01 00:00:00+00 BC').getUTCFullYear()).toBe(0);
    expect(Number.isNaN(parseTimestamptz('infinity').getTime())).toBe(true);
  });
});
