import { GraphQLError } from 'graphql';

/**
 * The DateTime scalar's input (docs/limits.md): an ISO-8601 date or date-time, read field by field.
 * `new Date(text)` rolled an impossible day forward ("2026-02-30" became 2 March) and guessed at
 * other forms; a value whose year, month, day, hour, minute or second is not on the calendar is now
 * refused with an error naming that field (`extensions.code` INVALID_INPUT, `extensions.dateField`).
 * Without an offset the time is UTC, whatever the server's time zone. The years the store accepts
 * (0001-9999) are checked after parsing, by the field guard (`guard.ts`), as typed InvalidInput.
 */

// 2026-09-21, 2026-09-21T10:00Z, 2026-09-21T10:00:00.123+02:00, 2026-09-21 10:00:00-0500
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(?:([Zz])|([+-])(\d{2})(?::?(\d{2}))?)?$/;

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The instant `text` names, or a GraphQLError saying which part of it is wrong. */
export function parseDateTime(text: unknown): Date {
  if (typeof text !== 'string') throw invalid(String(text), 'must be an ISO-8601 date-time string');
  const m = ISO.exec(text);
  if (!m) throw invalid(text, 'must be an ISO-8601 date-time such as 2026-09-21T10:00:00Z');
  const [, y, mo, d, h = '0', mi = '0', s = '0', frac, z, sign, oh, om = '0'] = m;
  if (m[4] === undefined && (z || sign)) throw invalid(text, 'an offset needs a time');
  const year = Number(y), month = Number(mo), day = Number(d);
  const hour = Number(h), minute = Number(mi), second = Number(s);
  if (month < 1 || month > 12) throw invalid(text, `month ${mo} is not a month`, 'month');
  const days = daysIn(year, month);
  if (day < 1 || day > days) throw invalid(text, `day ${d} is not a day of ${MONTHS[month - 1]} ${y} (1-${days})`, 'day');
  if (hour > 23) throw invalid(text, `hour ${h} is not an hour (00-23)`, 'hour');
  if (minute > 59) throw invalid(text, `minute ${mi} is not a minute (00-59)`, 'minute');
  if (second > 59) throw invalid(text, `second ${s} is not a second (00-59)`, 'second');
  const offsetHours = Number(oh ?? 0), offsetMinutes = Number(om);
  if (sign && (offsetHours > 23 || offsetMinutes > 59)) throw invalid(text, `offset ${sign}${oh}:${om} is not an offset`, 'offset');
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  at.setUTCFullYear(year, month - 1, day);
  at.setUTCHours(hour, minute, second, frac ? Number(frac.padEnd(3, '0').slice(0, 3)) : 0);
  const offset = sign ? (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes) : 0;
  return new Date(at.getTime() - offset * 60_000);
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

function invalid(text: string, why: string, field?: string): GraphQLError {
  const shown = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return new GraphQLError(`invalid DateTime "${shown}": ${why}`, {
    extensions: { code: 'INVALID_INPUT', ...(field ? { dateField: field } : {}) },
  });
}
