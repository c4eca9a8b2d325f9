/**
 * Values said in a statement: numbers (digits and number words), quantities
 * with a unit (money, weight, distance), clock times, calendar dates, week
 * days, months, years and proper names / places. The conflict rules compare
 * values of the same kind: two statements that give different values of one
 * kind disagree; a value said on one side only is an added detail.
 */
import { STOP_WORDS, NEGATIONS } from './words.js';
import { memoByText, shared } from './memo.js';
import { lexicon } from './lexicon.js';
import {
  clockHour, DAYPARTS, dayOf, dayShortened, fmtTime, foldMarks, isOrdinal, LENGTH_BEFORE, MEASURE_UNITS, MONEY_UNITS, monthOf, numberWord, ordinal, ordinalWord, PERIODS, SCALES,
} from './value-words.js';
import { count, lengthOfTime, sameMeasure, unitOf, withUnit } from './quantities.js';
import { howOften } from './how-often.js';
import { clockAfter, compoundNumber, DATING_BEFORE, NUMBER_WORD_BEFORE, numberInWords, parseNumber, partOfDayAfter, shouted, toks, type Tok } from './value-tokens.js';

export { count, lengthOfTime } from './quantities.js';

export { foldMarks, isOrdinal, numberWord };

export type ValueKind = 'contact' | 'number' | 'quantity' | 'time' | 'daypart' | 'date' | 'day' | 'month' | 'year' | 'name' | 'place';

export interface Value {
  kind: ValueKind;
  /** the words as written */
  raw: string;
  /** comparable form: "8" for "eight", "10:00" for "10am", "06-13" for "June 13", "monday" for "Mondays", "bristol" */
  norm: string;
}

/** The last day of each month (February's, the 28th or the 29th, none). */
const MONTH_DAYS: ReadonlyArray<number | null> = [31, null, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The day a count of years is turned: "his 90th birthday". */
const BIRTHDAY = /^(?:birthday|bday)$/;
const TITLES = new Set(['mr', 'mrs', 'ms', 'miss', 'dr', 'prof', 'st', 'sir', 'dame']);
const PLACE_PREPS = new Set(['in', 'at', 'to', 'from', 'near', 'into', 'visit', 'visited', 'visiting', 'towards', 'around', 'outside', 'leave', 'left']);


/**
 * Values found in a text, in order. Capitalised words count as names only
 * when they are not the first word of a sentence (where every word is
 * capitalised) and the text is not written in capitals throughout.
 */
export const extractValues: (text: string) => ReadonlyArray<Readonly<Value>> = memoByText(extractValuesOnce, shared);

function extractValuesOnce(text: string): Value[] {
  const out: Value[] = [];
  // e-mail addresses, web addresses and phone numbers first, blanked out so their parts are not read again
  let rest = text;
  // Each pattern starts only where its run starts and the phone run is bounded: linear in the text (issue 12).
  for (const re of [/(?<![\w.+-])[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, /\bhttps?:\/\/\S+|\bwww\.\S+/g, /(?<![\w:])\+?\d[\d ()-]{6,24}\d(?![\w:])/g]) {
    rest = rest.replace(re, (m) => {
      const isPhone = /^[+\d]/.test(m);
      const digits = m.replace(/\D/g, '');
      if (isPhone && ((digits.length < 9 && !m.startsWith('+')) || /^\d{1,3}(,\d{3})+$/.test(m))) return m;
      out.push({ kind: 'contact', raw: m.replace(/[.,;:!?)]+$/, ''), norm: isPhone ? digits : m.toLowerCase().replace(/[.,;:!?)]+$/, '') });
      return ' '.repeat(m.length);
    });
  }
  const ts = toks(rest);
  const used = new Set<number>();
  const caps = !shouted(text);
  const push = (kind: ValueKind, from: number, to: number, norm: string) => {
    for (let k = from; k <= to; k++) used.add(k);
    out.push({ kind, raw: ts.slice(from, to + 1).map((x) => x.text).join(' '), norm });
  };

  for (let i = 0; i < ts.length; i++) {
    if (used.has(i)) continue;
    const t = ts[i];
    const next = ts[i + 1];
    const next2 = ts[i + 2];
    const prev = ts[i - 1];

    // the last day of a month, said as its end: "by the end of April" is by 30 April (February's end, the 28th or the
    // 29th, is said as the month)
    const endOf = t.lower === 'end' && prev?.lower === 'the' && next?.lower === 'of' && next2 ? monthOf(next2.text) : null;
    const lastDay = endOf !== null ? MONTH_DAYS[endOf - 1] : null;
    if (lastDay && (next2!.lower !== 'may' || next2!.text === 'May')) {
      push('date', i, i + 2, `${String(endOf).padStart(2, '0')}-${lastDay}`);
      continue;
    }
    // dates: "June 13", "June 13th", "13 June", "13th of June"
    const mo = monthOf(t.text);
    const dm = next?.lower.match(/^(\d{1,2})(st|nd|rd|th)?$/);
    const dayNum = dm && Number(dm[1]) >= 1 && Number(dm[1]) <= 31 ? dm[1] : null;
    // "may" is a month only when written "May" and not opening a question ("May I ...")
    const isMonth = mo !== null && (t.lower !== 'may' || (t.text === 'May' && (dayNum !== null || !t.sentenceStart)));
    if (isMonth) {
      if (dayNum !== null) {
        push('date', i, i + 1, `${String(mo).padStart(2, '0')}-${dayNum.padStart(2, '0')}`);
      } else {
        push('month', i, i, String(mo).padStart(2, '0'));
      }
      continue;
    }
    // (a day said in words: "the third of June", "June the first")
    const dayWord = ordinalWord(t.lower);
    const dmWord = dayWord !== null && dayWord <= 31 ? [t.lower, String(dayWord)] : null;
    const dmBefore = t.lower.match(/^(\d{1,2})(st|nd|rd|th)?$/) ?? (dmWord && next?.lower === 'of' ? dmWord : null);
    if (dmBefore && Number(dmBefore[1]) >= 1 && Number(dmBefore[1]) <= 31) {
      const mIdx = next && monthOf(next.text) !== null ? i + 1 : next?.lower === 'of' && next2 && monthOf(next2.text) !== null ? i + 2 : -1;
      if (mIdx > 0) {
        push('date', i, mIdx, `${String(monthOf(ts[mIdx].text)).padStart(2, '0')}-${dmBefore[1].padStart(2, '0')}`);
        continue;
      }
    }

    // a date in figures: "09/09/2016", "23/4", "4/23/2025"; read day first (as here) unless only the other order is a date,
    // and not at all when both orders are ("3/4": March or April)
    // (with its year, or said as when: "on 23/4"; "open 24/7" is no date)
    const dated = (next2?.before === '/' && /^\d{2}(?:\d{2})?$/.test(next2.lower)) || /^(?:on|by|due|until|till|from|before|after|born|dated|date)$/.test(prev?.lower ?? '');
    const slash = dated && /^\d{1,2}$/.test(t.lower) && next?.before === '/' && /^\d{1,2}$/.test(next.lower) && t.before !== '/' ? [Number(t.lower), Number(next.lower)] : null;
    if (slash) {
      const [a, b] = slash as [number, number];
      const [day, month] = a > 12 && b <= 12 ? [a, b] : b > 12 && a <= 12 ? [b, a] : a === b ? [a, b] : [0, 0];
      if (day >= 1 && day <= 31 && month >= 1 && month <= 12) {
        push('date', i, i + 1, `${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`);
        continue;
      }
    }

    // week days
    // ("tues 10 am", "every thurs"; "wed", "sat", "sun" and "mon" are words too, read as days only before a time or after "on",
    // "every", "next", "this", "last")
    const d = dayOf(t.text) ?? dayShortened(t.text, () => /^(?:on|every|next|this|last)$/.test(prev?.lower ?? '') || (next !== undefined && /^\d/.test(next.text)));
    if (d) {
      push('day', i, i, d);
      continue;
    }

    // a length of time in hours, minutes and seconds (a race, a recording): "2:04:37"
    const hms = t.lower.match(/^(\d{1,2}):(\d{2}):(\d{2})$/);
    if (hms) {
      push('quantity', i, i, `${Number(hms[1]) * 3600 + Number(hms[2]) * 60 + Number(hms[3])}|second`);
      continue;
    }
    // times: 7:15, 10am, 2:30pm, 10 in the morning, at 9, noon
    let tm = t.lower.match(/^(\d{1,2}):(\d{2})(am|pm|a\.m\.|p\.m\.)?$/);
    if (tm) {
      let h = Number(tm[1]);
      const min = Number(tm[2]);
      const mer = tm[3] ?? (next && /^(am|pm|a\.m|p\.m)$/.test(next.lower) ? next.lower : undefined);
      if (mer?.startsWith('p') && h < 12) h += 12;
      if (mer?.startsWith('a') && h === 12) h = 0;
      push('time', i, mer && !tm[3] ? i + 1 : i, fmtTime(h, min, !mer && h <= 12));
      continue;
    }
    tm = t.lower.match(/^(\d{1,2})(am|pm)$/);
    const nw = numberWord(t.lower);
    const hourWord = nw !== null && nw >= 1 && nw <= 12 ? nw : null;
    const bareHour = /^\d{1,2}$/.test(t.lower) && Number(t.lower) >= 0 && Number(t.lower) <= 24 ? Number(t.lower) : hourWord;
    if (tm || (bareHour !== null && next && /^(am|pm)$/.test(next.lower))) {
      let h = tm ? Number(tm[1]) : (bareHour as number);
      const mer = tm ? tm[2] : next.lower;
      if (mer === 'pm' && h < 12) h += 12;
      if (mer === 'am' && h === 12) h = 0;
      push('time', i, tm ? i : i + 1, fmtTime(h, 0, false));
      continue;
    }
    if (bareHour !== null && next?.lower === "o'clock") {
      push('time', i, i + 1, fmtTime(bareHour, 0, true));
      continue;
    }
    const hourPart = bareHour !== null ? partOfDayAfter(ts, i + 1) : null;
    if (bareHour !== null && hourPart) {
      const pm = hourPart.pm && bareHour < 12;
      push('time', i, hourPart.to, fmtTime(pm ? bareHour + 12 : bareHour, 0, false));
      continue;
    }
    if (bareHour !== null && next?.lower === 'at' && next2?.lower === 'night') {
      push('time', i, i + 2, fmtTime(bareHour < 12 ? bareHour + 12 : bareHour, 0, false));
      continue;
    }
    if (bareHour !== null && /^(at|by|until|till|from|before|after)$/.test(prev?.lower ?? '') && !(next && (MEASURE_UNITS.test(next.lower) || MONEY_UNITS.test(next.lower) || next.lower in SCALES))) {
      push('time', i, i, fmtTime(bareHour, 0, bareHour <= 12));
      continue;
    }
    // "half past eight", "quarter past 9", "quarter to ten": the hour after the phrase
    const clock = /^(half|quarter)$/.test(t.lower) && next && /^(past|to)$/.test(next.lower) && next2 ? clockHour(next2.lower) : null;
    if (clock !== null) {
      const min = t.lower === 'half' ? 30 : next!.lower === 'past' ? 15 : 45;
      const h = next!.lower === 'to' && t.lower === 'quarter' ? (clock === 1 ? 12 : clock - 1) : clock;
      // ("half past two in the afternoon" is 14:30, "quarter to four pm" 15:45, as a bare hour and "half three" are read)
      const said = clockAfter(ts, i + 3, h);
      push('time', i, said.to, fmtTime(said.h, min, said.approx));
      continue;
    }
    // "half three" (British: half past three), "half six in the evening"; not "half an hour", "half the team"
    const halfHour = t.lower === 'half' && next && !(next2 && /^(?:past|to)$/.test(next2.lower)) ? clockHour(next.lower) : null;
    if (halfHour !== null && !(next2 && next2.lower !== 'in' && (MEASURE_UNITS.test(next2.lower) || MONEY_UNITS.test(next2.lower)))) {
      const said = clockAfter(ts, i + 2, halfHour);
      push('time', i, said.to, fmtTime(said.h, 30, said.approx));
      continue;
    }
    if (t.lower === 'noon' || t.lower === 'midday') {
      push('time', i, i, fmtTime(12, 0, false));
      continue;
    }
    if (t.lower === 'midnight') {
      push('time', i, i, fmtTime(0, 0, false));
      continue;
    }

    // a part of the day said as when: "in the morning", "every evening", "on Sunday mornings" (not "Good morning")
    const part = DAYPARTS[t.lower];
    if (part && prev && /^(?:the|every|each|this|most|at|tomorrow|yesterday|(?:mon|tues|wednes|thurs|fri|satur|sun)day)$/.test(prev.lower)) {
      push('daypart', i, i, part);
      continue;
    }
    // one unit of time said with "a" / "an", as a length: "My commute is an hour", "for about a year" (not a rate: "£10 an hour")
    if ((t.lower === 'a' || t.lower === 'an') && next && /^(?:minute|hour|day|week|fortnight|month|year)$/.test(next.lower) && LENGTH_BEFORE.has(prev?.lower ?? '')) {
      push('quantity', i, i + 1, withUnit('1', next.lower));
      continue;
    }
    // money with a currency sign
    if (/^[£$€]\d/.test(t.text)) {
      // ("£35k" is £35,000)
      const thousands = /k$/i.test(t.text);
      const n = parseNumber(thousands ? t.text.slice(0, -1) : t.text);
      // ("£2.5 million" is 2,500,000)
      const scale = !thousands && n !== null && next && next.before === '' ? SCALES[next.lower] : undefined;
      if (scale !== undefined) {
        push('quantity', i, i + 1, String(n! * scale));
        continue;
      }
      push('quantity', i, i, String(n !== null && thousands ? n * 1000 : n));
      continue;
    }
    // how often, in chat's shorthand: "3x a week" = 3/week
    // (read as the number and its "x")
    const per = ts[i + 3] ? PERIODS[ts[i + 3]!.lower] : undefined;
    if (/^\d+$/.test(t.lower) && next?.lower === 'x' && next.before === '' && next2 && /^(?:a|an|per|every|each)$/.test(next2.lower) && per) {
      push('number', i, i + 3, `${t.lower}/${per}`);
      continue;
    }
    // numbers with a unit stuck on: 5k, 20%
    const stuck = t.lower.match(/^(\d+(?:\.\d+)?)(k|%)$/);
    if (stuck) {
      // ("20%" is "20 percent": one unit however written)
      push('quantity', i, i, stuck[2] === '%' ? withUnit(stuck[1]!, '%') : `${stuck[1]}${stuck[2]}`);
      continue;
    }
    // a fraction: "1/2 cup", "3/4" (a part of a whole, written with a slash; "24/7" is none)
    // (before a word, never after a word that dates: "Due on 3/4." may be a day)
    if (/^\d{1,2}$/.test(t.text) && next && next.before === '/' && /^\d{1,2}$/.test(next.text) && !(ts[i + 2]?.before === '/')
      && Number(t.text) > 0 && Number(t.text) < Number(next.text) && Number(next.text) <= 16
      && next2 && next2.before === '' && /^[a-z]/.test(next2.lower) && !DATING_BEFORE.has(prev?.lower ?? '')) {
      push('number', i, i + 1, `${t.text}/${next.text}`);
      i++;
      continue;
    }
    // a code said digit by digit: "4-4-7-1" is 4471 (three digits or more, one at a time, joined by hyphens)
    if (/^\d$/.test(t.text)) {
      let j = i;
      while (ts[j + 1] && ts[j + 1]!.before === '-' && /^\d$/.test(ts[j + 1]!.text)) j++;
      if (j - i >= 2) {
        push('number', i, j, ts.slice(i, j + 1).map((x) => x.text).join(''));
        i = j;
        continue;
      }
    }
    // an ordinal: "the fourth floor" = "the 4th floor" (a single ordinal word after "the" only: "at first" is no position;
    // "twenty-first" anywhere); an Nth birthday is turning N ("his ninetieth birthday" / "turned 90")
    const digits = isOrdinal(t.lower);
    const ord = digits ? parseInt(t.lower, 10) : ordinalWord(t.lower);
    const birthday = BIRTHDAY.test(next?.lower ?? '');
    if (ord !== null && (digits || prev?.lower === 'the' || t.lower.includes('-') || birthday)) {
      push('number', i, i, birthday ? String(ord) : ordinal(ord));
      continue;
    }
    // a number word opening a compound is its number: "five-a-side" as "5-a-side", "two-bedroom" as "2-bedroom"
    const leadNumber = /^[a-z]+-[a-z]/.test(t.lower) && numberWord(t.lower) === null ? compoundNumber(t.lower) : null;
    if (leadNumber !== null) {
      push('number', i, i, String(leadNumber));
      continue;
    }
    // how often: "weekly", "every week", "once a week" = 1/week (src/core/how-often.ts)
    const often = howOften(ts, i);
    if (often) {
      push('number', i, often.to, often.norm);
      continue;
    }
    // an amount written with thousands commas and no unit: "My salary is 48,000 a year." ("53k" is one too)
    if (/^\d{1,3}(?:,\d{3})+$/.test(t.text) && !(next && (MEASURE_UNITS.test(next.lower) || MONEY_UNITS.test(next.lower)))) {
      push('quantity', i, i, String(parseNumber(t.text)));
      continue;
    }
    // digits, number words
    let n = parseNumber(t.text);
    if (n === null && nw !== null && (t.lower !== 'one' || NUMBER_WORD_BEFORE.has(prev?.lower ?? '') || (next && next.lower in SCALES))) n = nw;
    // "ten thousand", "two hundred", "a million": the scale word multiplies (and is read with it)
    if (next && next.lower in SCALES && (n !== null || t.lower === 'a')) {
      const { value, end } = numberInWords(ts, i, n ?? 1);
      const after = ts[end + 1];
      const unit = after && (MONEY_UNITS.test(after.lower) || MEASURE_UNITS.test(after.lower)) && after.lower !== 'in';
      push(unit ? 'quantity' : 'number', i, unit ? end + 1 : end, String(value));
      continue;
    }
    // "floor 4" is "the 4th floor", "level 2" "the 2nd level": a position said after its noun
    if (n !== null && Number.isInteger(n) && n > 0 && n < 200 && /^(?:floor|level|storey)$/.test(prev?.lower ?? '') && !(next && MEASURE_UNITS.test(next.lower))) {
      push('number', i, i, ordinal(n));
      continue;
    }
    if (n !== null) {
      // "three times a week" = 3/week
      const period = next?.lower === 'times' && next2 && /^(?:a|an|per|every|each)$/.test(next2.lower) && ts[i + 3] ? PERIODS[ts[i + 3]!.lower] : undefined;
      if (period) {
        push('number', i, i + 3, `${n}/${period}`);
        continue;
      }
      // ("in" before a word is where or when: "Year 4 in September", not four inches)
      const inBefore = next?.lower === 'in' && (!/^\d/.test(t.text) || (next2 !== undefined && /^\p{L}/u.test(next2.text) && next2.before === ''));
      if (next && (MONEY_UNITS.test(next.lower) || MEASURE_UNITS.test(next.lower)) && !inBefore) {
        push('quantity', i, i + 1, withUnit(String(n), next.lower));
        continue;
      }
      if (/^\d{4}$/.test(t.text) && n >= 1900 && n <= 2099) {
        push('year', i, i, String(n));
        continue;
      }
      push('number', i, i, String(n));
      continue;
    }

    // proper names and places (and a brand written with a capital inside: "easyJet", "iPhone", "eBay", wherever it stands)
    if (caps && ((/^\p{Lu}/u.test(t.text) && !t.sentenceStart) || /^\p{Ll}{1,8}\p{Lu}\p{L}*$/u.test(t.text))) {
      const low = t.lower.replace(/'s?$/, '');
      if (low === 'i' || STOP_WORDS.has(low) || NEGATIONS.has(low) || TITLES.has(low) || /^i'/.test(t.lower)) continue;
      const pre = ts[i - 1];
      const inName = pre && /^\p{Lu}/u.test(pre.text) && !pre.sentenceStart && (out.at(-1)?.kind === 'name' || out.at(-1)?.kind === 'place');
      // a name WordNet knows whole ("New York", "Papua New Guinea", "South Africa") is one value, not its words:
      // "York" is not said by "New York" (the run may open the sentence: "New York is …")
      const whole = inName ? null : knownName(ts, pre && pre.sentenceStart && /^\p{Lu}/u.test(pre.text) && !used.has(i - 1) && ts[i].before === '' ? i - 1 : i);
      if (whole) {
        const before = ts[whole.from - 1];
        push(before && PLACE_PREPS.has(before.lower) ? 'place' : 'name', whole.from, whole.to, foldMarks(whole.norm));
        i = whole.to;
        continue;
      }
      const kind: ValueKind = inName ? (out.at(-1)!.kind) : pre && PLACE_PREPS.has(pre.lower) ? 'place' : 'name';
      push(kind, i, i, foldMarks(low));
    }
  }
  return out;
}

/**
 * The longest run of two to four capitalised words from `from`, each right after the other, that
 * WordNet knows as one noun ("New York", "Papua New Guinea"), or null.
 */
function knownName(ts: readonly Tok[], from: number): { from: number; to: number; norm: string } | null {
  let last = from;
  while (last + 1 < ts.length && last - from < 3 && /^\p{Lu}/u.test(ts[last + 1]!.text) && ts[last + 1]!.before === '') last++;
  for (let to = last; to > from; to--) {
    const norm = ts.slice(from, to + 1).map((x) => x.lower).join(' ');
    if (lexicon().nounThemes(norm).length > 0) return { from, to, norm };
  }
  return null;
}

/** The kinds compared together: names and places are one group (a capitalised word may be read either way). */
export function valueGroup(kind: ValueKind): string {
  return kind === 'place' ? 'name' : kind;
}

/** Two normalised values of one group are the same value (a bare hour matches it in either half of the day). */
export function sameValue(kind: ValueKind, a: string, b: string): boolean {
  if (a === b) return true;
  if (kind === 'time') {
    const pa = a.match(/^(~?)(\d+):(\d+)$/);
    const pb = b.match(/^(~?)(\d+):(\d+)$/);
    if (!pa || !pb) return false;
    const ma = Number(pa[2]) * 60 + Number(pa[3]);
    const mb = Number(pb[2]) * 60 + Number(pb[3]);
    if (pa[1] || pb[1]) return ma % 720 === mb % 720;
    return ma === mb;
  }
  if (kind === 'quantity') {
    const [ua, ub] = [unitOf(a), unitOf(b)];
    if (ua !== null && ub !== null && ua !== ub) return (lengthOfTime(a) !== null && lengthOfTime(a) === lengthOfTime(b)) || sameMeasure(a, b);
    return count(a) === count(b) && (ua === null || ub === null || ua === ub);
  }
  return false;
}

/** A bare number and a quantity of the same count ("My son is 6." / "... six years old."): one value said two ways. */
export function sameCount(a: Value, b: Value): boolean {
  const kinds = new Set([a.kind, b.kind]);
  return kinds.has('number') && kinds.has('quantity') && count(a.norm) === count(b.norm);
}
