/**
 * The tokens values are read from (src/core/values.ts): words and figures as typed, with what stands
 * between them, and the small readings of one token or two that the value reader asks of them.
 */
import { numberWord, SCALES, TENS, UNITS } from './value-words.js';

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

/**
 * A number in words from its first word (worth `first`; "a" is 1) through its scale words: "twelve hundred and fifty" is
 * 1250, "two thousand five hundred" 2500, "two hundred and fifty thousand" 250000, "two million five hundred thousand"
 * 2500000. It stops at punctuation ("two hundred, thirty of them lambs"), at a word that is no number, and at a scale no
 * smaller than the last ("a thousand thousand" is read as far as it makes one number). `end`: its last token.
 */
export function numberInWords(ts: readonly Tok[], i: number, first: number): { value: number; end: number } {
  let total = 0;
  let current = first;
  let lastScale = Number.POSITIVE_INFINITY;
  let end = i;
  for (let k = i + 1; k < ts.length; k++) {
    const tk = ts[k]!;
    if (tk.before !== '') break;
    const scale = SCALES[tk.lower];
    if (scale !== undefined) {
      if (scale === 100) {
        if (current === 0 || current >= 100) break;
        current *= 100;
      } else {
        if (scale >= lastScale || current === 0) break;
        total += current * scale;
        current = 0;
        lastScale = scale;
      }
      end = k;
      continue;
    }
    // "and" only after a scale word, before a number under a hundred: "two hundred and five"
    const word = tk.lower === 'and' ? ts[k + 1] : tk;
    if (!word || word.before !== '' || (tk.lower === 'and' && !(ts[k - 1]!.lower in SCALES))) break;
    const v = numberWord(word.lower);
    if (v === null || v <= 0 || v >= 100 || current % 100 !== 0) break;
    current += v;
    end = tk.lower === 'and' ? k + 1 : k;
    if (tk.lower === 'and') k++;
  }
  return { value: total + current, end };
}
