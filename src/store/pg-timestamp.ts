/**
 * PostgreSQL's text form of a `timestamptz` read back as a Date, for every year the service
 * accepts (0001-9999, docs/limits.md). PGlite's own parser is `new Date(text)`, and JavaScript
 * reads the non-ISO "0001-06-15 00:00:00+00" by guesswork: a year under 100 came back as
 * 2015-01-06 (0001-06-15), 2004-12-03 (0012-03-04) or 1950 (0050). node-postgres parses the
 * fields itself and was right; this does the same for PGlite (`PgliteClient.open`) and for the
 * timestamps inside JSON rows (`sql-rows.ts`).
 */

// 2026-09-21 10:00:00.123456+02, 0001-06-15T00:00:00+00:00, 1900-01-01 00:00:00+00:09:21, ... BC
const TIMESTAMPTZ = /^(\d{4,})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d{2})(?::?(\d{2}))?(?::?(\d{2}))?)?( BC)?$/;

/** The instant `text` names; text in any other form goes to `new Date` as before ('infinity': an invalid Date). */
export function parseTimestamptz(text: string): Date {
  const m = TIMESTAMPTZ.exec(text);
  if (!m) return new Date(text);
  const [, y, mo, d, h, mi, s, frac, , sign, oh, om, os, bc] = m;
  const year = bc ? 1 - Number(y) : Number(y);
  const ms = frac ? Math.floor(Number(frac.padEnd(3, '0').slice(0, 3))) : 0;
  const at = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC reads years 0-99 as 1900-1999.
  at.setUTCFullYear(year, Number(mo) - 1, Number(d));
  at.setUTCHours(Number(h), Number(mi), Number(s), ms);
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om ?? 0) * 60 + Number(os ?? 0)) : 0;
  return new Date(at.getTime() - offset * 1000);
}
