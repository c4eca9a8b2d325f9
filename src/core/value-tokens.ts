/**
 * The tokens values are read from (src/core/values.ts): words and figures as typed, with what stands
 * between them, and the small readings of one token or two that the value reader asks of them.
 */
import { numberWord, TENS, UNITS } from './value-words.js';

export interface Tok {
  text: string; // as written (apostrophes normalised)
  lower: string;
  /** index in the original string */
  start: number;
  /** first word of a sentence (start of text or after . ! ? :) */
  sentenceStart: boolean;
  /** the non-space characters before this token since the previous token */
  before: string;
}

export function toks(text: string): Tok[] {
  // "9:00 a.m." is "9:00 am." (the sentence's full stop kept)
  // ("80k" is eighty thousand; "80kg" is 80 and a unit, read as "80 kg")
  const t = text.replace(/[\u2018\u2019\u201B\u2032\u02BC`´]/g, "'").replace(/(\d)\s*([ap])\.\s?m\b/gi, '$1 $2m');
  const out: Tok[] = [];
  let last = 0;
  for (const m of t.matchAll(/[£$€]?\d+(?:[.,:]\d+)*(?:am|pm|a\.m\.|p\.m\.|st|nd|rd|th|k(?![\p{L}])|%)?|[\p{L}]+(?:['\-][\p{L}]+)*'?/gu)) {
    const between = t.slice(last, m.index);
    const sentenceStart = out.length === 0 || /[.!?:]\s*$/.test(between) || /[.!?:]["')\]]*\s+$/.test(between);
    const lower = m[0].toLowerCase();
    const prev = out[out.length - 1];
    // "forty two" is "forty-two": a tens word and a unit word apart by a space are one number
    if (prev && /^\s+$/.test(between) && prev.lower in TENS && lower in UNITS && UNITS[lower]! > 0 && UNITS[lower]! < 10) {
      prev.text = `${prev.text} ${m[0]}`;
      prev.lower = `${prev.lower} ${lower}`;
    } else {
      out.push({ text: m[0], lower, start: m.index ?? 0, sentenceStart, before: between.replace(/\s+/g, '') });
    }
    last = (m.index ?? 0) + m[0].length;
  }
  return out;
}

/** Words before a day in figures: "on 3/4", "by 3/4". */
export const DATING_BEFORE = new Set(['on', 'by', 'until', 'till', 'from', 'since', 'before', 'after', 'due', 'for']);

/** The number words opening a compound, the longest that reads ("twenty-one-year-old" -> 21); "one-off" opens with none. */
export function compoundNumber(word: string): number | null {
  const parts = word.split('-');
  // (a number word is one or two parts, "twenty-one": the heads longer than that are none; reading every head of a
  // hyphenated run was quadratic, "a-a-a-…" of 50,000 letters 4.8 s)
  for (let k = Math.min(parts.length - 1, 2); k >= 1; k--) {
    const head = parts.slice(0, k).join('-');
    if (head === 'one') return null;
    const n = numberWord(head);
    if (n !== null) return n;
  }
  return null;
}

export function parseNumber(s: string): number | null {
  const clean = s.replace(/^[£$€]/, '').replace(/,(?=\d{3}\b)/g, '');
  if (!/^\d+(\.\d+)?$/.test(clean)) return null;
  return Number(clean);
}

export const NUMBER_WORD_BEFORE = new Set(['have', 'has', 'had', 'am', "i'm", 'is', 'are', 'was', 'turned', 'turn', 'only', 'just', 'own', 'got', 'exactly']);

/** "in the morning", "in the afternoon", "in the evening" from token `j` (after an hour): whether it is after noon, and its last token. */
export function partOfDayAfter(ts: readonly Tok[], j: number): { pm: boolean; to: number } | null {
  const part = ts[j + 2]?.lower;
  if (ts[j]?.lower !== 'in' || ts[j + 1]?.lower !== 'the' || part === undefined || !/^(?:morning|afternoon|evening)$/.test(part)) return null;
  return { pm: part !== 'morning', to: j + 2 };
}

/**
 * An hour said in a clock phrase ending before token `j` ("half three", "quarter to four"), read with what follows it: "in
 * the afternoon" or "pm" makes it after noon. Its hour of the day, its last token, and whether it stays approximate
 * (neither said: "half three" may be 3:30 or 15:30).
 */
export function clockAfter(ts: readonly Tok[], j: number, hour: number): { h: number; to: number; approx: boolean } {
  const part = partOfDayAfter(ts, j);
  const mer = ts[j] && /^(?:am|pm)$/.test(ts[j]!.lower) ? ts[j]!.lower : null;
  return { h: (part?.pm || mer === 'pm') && hour < 12 ? hour + 12 : hour, to: part ? part.to : mer ? j : j - 1, approx: !(part || mer) };
}

/** Is the token a mostly-uppercase "shouted" text, where capitals mean nothing? */
export function shouted(text: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, '');
  if (letters.length < 8) return false;
  const upper = letters.replace(/[^\p{Lu}]/gu, '').length;
  return upper / letters.length > 0.6;
}
