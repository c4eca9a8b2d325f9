/**
 * The words and forms values are read from (src/core/values.ts): number words, ordinals, scales,
 * months and days, units of money and measure, how often, and clock times as values write them.
 * English's closed classes, not a word list fitted to any case.
 */
import { table } from './table.js';

export const UNITS: Readonly<Record<string, number>> = table({
  zero: 0, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10,
  eleven: 11, twelve: 12, thirteen: 13, fourteen: 14, fifteen: 15, sixteen: 16, seventeen: 17,
  eighteen: 18, nineteen: 19,
});
export const TENS: Readonly<Record<string, number>> = table({
  twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, seventy: 70, eighty: 80, ninety: 90,
});

/** "eight" -> 8, "twenty-one" -> 21, "twenty" -> 20, "dozen" -> 12; null when not a number word. */
export function numberWord(word: string): number | null {
  const w = word.toLowerCase();
  if (w === 'dozen') return 12;
  if (w in UNITS) return UNITS[w];
  if (w in TENS) return TENS[w];
  const m = w.match(/^([a-z]+)[-\s]([a-z]+)$/);
  if (m && m[1] in TENS && m[2] in UNITS && UNITS[m[2]] > 0 && UNITS[m[2]] < 10) return TENS[m[1]] + UNITS[m[2]];
  return null;
}

export const ORDINALS: Readonly<Record<string, number>> = table({
  first: 1, second: 2, third: 3, fourth: 4, fifth: 5, sixth: 6, seventh: 7, eighth: 8, ninth: 9, tenth: 10, eleventh: 11,
  twelfth: 12, thirteenth: 13, fourteenth: 14, fifteenth: 15, sixteenth: 16, seventeenth: 17, eighteenth: 18, nineteenth: 19,
  twentieth: 20, thirtieth: 30, fortieth: 40, fiftieth: 50, sixtieth: 60, seventieth: 70, eightieth: 80, ninetieth: 90, hundredth: 100,
});

/** An ordinal word's number: "fourth" -> 4, "twenty-first" -> 21; null when not one. */
export function ordinalWord(word: string): number | null {
  const w = word.toLowerCase();
  if (w in ORDINALS) return ORDINALS[w]!;
  const m = w.match(/^([a-z]+)-([a-z]+)$/);
  return m && m[1]! in TENS && m[2]! in ORDINALS && ORDINALS[m[2]!]! < 10 ? TENS[m[1]!]! + ORDINALS[m[2]!]! : null;
}

/** 4 -> "4th", 21 -> "21st": an ordinal as written in digits. */
export function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
  return `${n}${suffix}`;
}

/** Whether a value's form is an ordinal written in digits ("4th", "21st"): a position in a series, not a count. */
export function isOrdinal(norm: string): boolean {
  return /^\d+(?:st|nd|rd|th)$/.test(norm);
}

export const SCALES: Readonly<Record<string, number>> = table({ hundred: 100, thousand: 1_000, million: 1_000_000, billion: 1_000_000_000 });

/** A word without its accents: "Kraków" and "Krakow" name one city. */
export function foldMarks(word: string): string {
  return /[^\x00-\x7f]/.test(word) ? word.normalize('NFD').replace(/\p{M}/gu, '') : word;
}

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];
const MONTH_ABBR: Readonly<Record<string, number>> = table({ jan: 1, feb: 2, mar: 3, apr: 4, jun: 6, jul: 7, aug: 8, sep: 9, sept: 9, oct: 10, nov: 11, dec: 12 });
const DAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];

/** Month number of a word ("June", "jun", "Sept"), or null. */
export function monthOf(word: string): number | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  const i = MONTHS.indexOf(w);
  if (i >= 0) return i + 1;
  return MONTH_ABBR[w] ?? null;
}

export function dayOf(word: string): string | null {
  const w = word.toLowerCase().replace(/'?s$/, '');
  return DAYS.includes(w) ? w : null;
}

/** A week day shortened as chat types it ("tues", "weds", "thurs"); not the words "sat", "sun", "wed", "mon". */
const DAY_ABBR: Readonly<Record<string, string>> = table({
  tue: 'tuesday', tues: 'tuesday', weds: 'wednesday', thu: 'thursday', thur: 'thursday', thurs: 'thursday', fri: 'friday',
});
/** Week days shortened into words of their own ("I sat", "the sun"): days only where a day is said. */
const WORD_DAYS: Readonly<Record<string, string>> = table({ mon: 'monday', wed: 'wednesday', sat: 'saturday', sun: 'sunday' });

/** A week day shortened ("tues"), and one shortened into a word ("sat") when `saidAsDay` says a day is said there. */
export function dayShortened(word: string, saidAsDay: () => boolean): string | null {
  const w = word.toLowerCase().replace(/\.$/, '');
  return DAY_ABBR[w] ?? (w in WORD_DAYS && saidAsDay() ? WORD_DAYS[w]! : null);
}

export const MONEY_UNITS = /^(pounds?|quid|dollars?|bucks|euros?|pence|cents?|p|usd|gbp|eur|yen|francs?|rupees?)$/i;
export const MEASURE_UNITS = /^(k|km|kms|kilomet(?:er|re)s?|miles?|m|met(?:er|re)s?|cm|mm|kg|kgs|kilos?|kilograms?|g|grams?|lbs?|stone|st|ounces?|oz|litres?|liters?|ml|millilit(?:er|re)s?|mg|milligrams?|mcg|micrograms?|percent|%|seconds?|secs?|minutes?|mins?|hours?|hrs?|weeks?|wks?|months?|years?|yrs?|days?|steps|calories|kcal|feet|foot|ft|inches|in)$/i;


export const TIMES: Readonly<Record<string, number>> = table({ once: 1, twice: 2, thrice: 3 });
/** Periods a frequency is counted in, and the adverbs of once a period (English's closed class). */
export const PERIODS: Readonly<Record<string, string>> = table({
  hour: 'hour', day: 'day', night: 'day', week: 'week', fortnight: 'fortnight', month: 'month', year: 'year',
});
export const FREQUENCY_WORDS: Readonly<Record<string, string>> = table({
  hourly: 'hour', daily: 'day', nightly: 'day', weekly: 'week', fortnightly: 'fortnight', monthly: 'month', yearly: 'year', annually: 'year',
});

/** The hour a clock phrase names ("eight", "8"), 1-12, or null. */
export function clockHour(word: string): number | null {
  const h = /^\d{1,2}$/.test(word) ? Number(word) : numberWord(word);
  return h !== null && h >= 1 && h <= 12 ? h : null;
}

export function fmtTime(h: number, min: number, ambiguous: boolean): string {
  return `${ambiguous ? '~' : ''}${h}:${String(min).padStart(2, '0')}`;
}

/**
 * Parts of the day, as when something is done ("in the morning", "every evening"), and bedtime, at night ("I take my tablet
 * at 8am." / "… at bedtime." gives another time, not the same words said again; "lunchtime" is left: "midday" is 12:00).
 */
export const DAYPARTS: Readonly<Record<string, string>> = table({
  morning: 'morning', mornings: 'morning', afternoon: 'afternoon', afternoons: 'afternoon', evening: 'evening', evenings: 'evening', night: 'night', nights: 'night',
  bedtime: 'night',
});

/** Words a length of time follows ("is an hour", "takes about a week", "for a year"): after them "a" / "an" + unit is one unit. */
export const LENGTH_BEFORE = new Set(['is', "'s", 'was', 'takes', 'take', 'took', 'about', 'around', 'roughly', 'nearly', 'almost', 'over', 'under', 'for', 'within', 'only', 'just', 'than', 'lasts']);
