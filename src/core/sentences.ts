/**
 * Sentences of a chat message, and the one normalisation the quote check
 * allows. Pure: no I/O, no project imports.
 *
 * The splitter is deliberately conservative: when in doubt it does NOT split.
 * A wrong split would let a fragment pass the quote check as a "whole
 * sentence" ("New York" out of "I ❤️ New York"); a missed split only makes
 * the assistant quote a little more. The rules, with examples, are in
 * docs/quote-check.md.
 */

/** A sentence of a text. `start`/`end` are offsets into the ORIGINAL string; `text === original.slice(start, end)` and has no surrounding whitespace. */
export interface SentenceSpan {
  text: string;
  start: number;
  end: number;
}

/** A sentence plus what the quote check needs to know about its edges. */
export interface SentenceDetail extends SentenceSpan {
  /** Where the sentence's list marker ("1. ", "- ") starts, or `start` when it has none. */
  markerStart: number;
  /** True when the sentence ends with end punctuation (. ! ? …), ignoring closing quotes, brackets and emoji after it. */
  terminated: boolean;
}

/** A space that does not show: after end punctuation, it parts two sentences as a space does. */
const ZERO_WIDTH_SPACE = '\u200b';
const TERMINATORS = new Set(['.', '!', '?', '…', '。', '！', '？']);
/** Full-width marks are followed by no space in CJK text, so they end a sentence on their own. */
const CJK_TERMINATORS = new Set(['。', '！', '？']);
const STRONG = /[!?！？]/;
const CLOSING_QUOTES = new Set(['"', "'", '”', '’', '»', '›', '」', '』']);
const CLOSERS = new Set([...CLOSING_QUOTES, ')', ']', '}']);
const OPENERS = new Set(['"', "'", '“', '‘', '«', '‹', '(', '[', '{', '„', '「', '『']);

/** Always followed by a name or a phrase, so a capital after them never starts a sentence. */
const NEVER_FINAL = new Set([
  'mr', 'mrs', 'ms', 'mx', 'dr', 'prof', 'st', 'mt', 'ft', 'rev', 'fr', 'hon', 'gen', 'col', 'capt', 'cpt',
  'lt', 'sgt', 'cmdr', 'adm', 'sen', 'rep', 'gov', 'pres', 'supt', 'messrs', 'mme', 'mlle',
  'vs', 'e.g', 'i.e', 'eg', 'ie', 'cf', 'viz', 'approx', 'ca', 'incl', 'resp',
]);
/** Abbreviations that, before a number, never end a sentence ("Jan. 5", "No. 7", "p. 12"). */
const BEFORE_NUMBER = new Set([
  'no', 'nos', 'nr', 'p', 'pp', 'vol', 'vols', 'ch', 'chap', 'sec', 'fig', 'figs', 'art', 'op', 'ed', 'ver', 'v',
  'tel', 'ph', 'ext', 'est', 'rm', 'apt', 'bldg', 'ste', 'pt', 'pts',
  'jan', 'feb', 'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec',
]);

/** Abbreviations said within a sentence, before a lowercase word ("pears etc. and bread", "20 mins. my"): never an ending there. */
const WITHIN = new Set(['etc', 'inc', 'ltd', 'co', 'corp', 'jr', 'sr', 'min', 'mins', 'max', 'hr', 'hrs', 'yr', 'yrs', 'wk', 'wks', 'mo', 'mos',
  'lb', 'lbs', 'oz', 'tbsp', 'tsp', 'dept', 'govt', 'esp', 'misc', 'al', 'ave', 'rd', 'blvd', 'ln', 'sq', 'cont', 'wt', 'ht',
  'mon', 'tue', 'tues', 'wed', 'thu', 'thur', 'thurs', 'fri', 'sat', 'sun']);
/** Words that go on a clause after a period as often as they open a sentence: "it rained. and then it stopped". */
const GOES_ON = /[\s\p{Cf}]*(?:and|or|but|nor|plus|so|yet|than|because|cos|cuz|whereas|while)(?![\p{L}\p{N}'’])/uy;

/** The word at `at` (after spaces and invisible characters) goes on a clause: read in place, the text never copied. */
function goesOn(text: string, at: number): boolean {
  GOES_ON.lastIndex = at;
  return GOES_ON.test(text);
}
/** A word a period can end: letters or digits (a date's "3rd", a place), no inner dot, not a single letter nor an abbreviation. */
function plainEnding(word: string): boolean {
  const lw = word.toLowerCase();
  return /^[\p{L}\p{N}'’-]{2,}$/u.test(word) && !NEVER_FINAL.has(lw) && !BEFORE_NUMBER.has(lw) && !WITHIN.has(lw);
}

/** A figure a period can end: a time, a price, a rate ("7:30am", "£12.99/mo", "24/7"); no dotted letters ("a.m"). */
function figureEnding(word: string): boolean {
  return /^[£$€]?\p{N}[\p{L}\p{N}:/.,%'’-]*$/u.test(word) && !/\p{L}\.\p{L}/u.test(word);
}

/** "1. ", "2) ", "(3) ", "a) ", "- ", "* ", "• " at the start of a line. Letters need a bracket: "A. J. lives here." is not a list. */
const LIST_MARKER = /^[ \t]*(?:[-*•‣◦–]|\d{1,3}[.)]|\(\d{1,3}\)|\(?[a-zA-Z]\))[ \t]+/;

const EMOJI = /(?:[\p{Extended_Pictographic}\p{Regional_Indicator}](?:\uFE0F|\u20E3|\p{Emoji_Modifier})*(?:\u200D\p{Extended_Pictographic}(?:\uFE0F|\p{Emoji_Modifier})*)*)+/uy;
const EMOTICON = /(?:[:;=]-?[)(DPpOo|*\]\[]|<3|xD|XD)(?=\s|$)/y;
const LINE_BREAK = /\r\n|[\n\r\u2028\u2029\u0085]/g;

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);
/** White space, or an invisible format character (a zero-width space between two sentences is a gap; a direction mark beside one is read past). */
const isGap = (c: string | undefined): boolean => c !== undefined && (isSpace(c) || isFormatUnit(c.charCodeAt(0)));
const isLower = (c: string | undefined): boolean => c !== undefined && /\p{Ll}/u.test(c);
const isDigit = (c: string | undefined): boolean => c !== undefined && /\p{Nd}/u.test(c);

/** End of the emoji cluster or text emoticon starting at `i`, or -1. */
function emojiEnd(text: string, i: number): number {
  for (const re of [EMOJI, EMOTICON]) {
    re.lastIndex = i;
    if (re.test(text)) return re.lastIndex;
  }
  return -1;
}

/** The word just before position `i` (a period): letters, digits and inner dots, without opening quotes/brackets. */
function wordBefore(text: string, i: number, floor: number): string {
  let k = i;
  while (k > floor && !isSpace(text[k - 1]) && !OPENERS.has(text[k - 1])) k--;
  return text.slice(k, i);
}

/**
 * Whether the terminator run `text[i, j)` ends the sentence, given the first
 * non-space character after it (`next`) on the same line.
 */
function endsSentence(text: string, segStart: number, i: number, j: number, closedQuote: boolean, next: string): boolean {
  // A comma or semicolon after the mark means the sentence goes on ("Yes!, he said" is rare; "etc., and" is not).
  if (/[,;:)\]}]/.test(next)) return false;
  const run = text.slice(i, j);
  if (STRONG.test(run)) {
    // "Why?" she asked. -> one sentence. Otherwise ? and ! end a sentence even before a lowercase word:
    // people do not capitalise in chat, and nobody abbreviates with "?".
    return !(closedQuote && isLower(next));
  }
  const word = wordBefore(text, i, segStart);
  const lw = word.toLowerCase();
  // A period or ellipsis before a lowercase word is an abbreviation or a pause ("e.g. this", "I don't know... maybe."),
  // unless one period ends a plain word or a figure and the word after it does not go on a clause: chat is typed in
  // lower case too ("turns 7 on june 3rd. she's obsessed with dinosaurs", "i moved to leeds. my sister lives in york.",
  // "the vet is at 7:30am. need to leave early").
  if (isLower(next)) return run === '.' && (plainEnding(word) || figureEnding(word)) && !goesOn(text, j);
  if (run.length > 1 || run.includes('…')) return true; // "I don't know... Maybe." -> two sentences
  if (NEVER_FINAL.has(lw)) return false;
  if (isDigit(next) && BEFORE_NUMBER.has(lw)) return false;
  // Initials and dotted capitals: "J. R. R. Tolkien", "A. J. Smith", "the U.S. Army".
  if (/^(?:\p{Lu}\.)*\p{Lu}$/u.test(word)) return false;
  return true;
}

/** Sentences of one line (no line breaks inside), offsets relative to `text`. */
function splitLine(text: string, ls: number, le: number, out: SentenceDetail[]): void {
  const marker = LIST_MARKER.exec(text.slice(ls, le));
  let pos = ls;
  while (pos < le && isSpace(text[pos])) pos++;
  const markerStart = pos;
  if (marker) pos = ls + marker[0].length;
  let segStart = pos;
  let segMarker = marker ? markerStart : -1;

  const push = (s: number, e: number, terminated: boolean): void => {
    while (s < e && isGap(text[s])) s++;
    while (e > s && isGap(text[e - 1])) e--;
    if (e > s) out.push({ text: text.slice(s, e), start: s, end: e, markerStart: segMarker >= 0 ? segMarker : s, terminated });
    segMarker = -1;
  };

  let i = pos;
  while (i < le) {
    if (!TERMINATORS.has(text[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j < le && TERMINATORS.has(text[j])) j++;
    let k = j;
    let closedQuote = false;
    while (k < le && (CLOSERS.has(text[k]) || (isFormatUnit(text.charCodeAt(k)) && text[k] !== ZERO_WIDTH_SPACE))) {
      if (CLOSING_QUOTES.has(text[k])) closedQuote = true;
      k++;
    }
    // An emoji right after the end punctuation belongs to that sentence: "Great! 😍 See you."
    let m = k;
    for (;;) {
      let w = m;
      while (w < le && (text[w] === ' ' || text[w] === '\t')) w++;
      const e = w < le ? emojiEnd(text, w) : -1;
      if (e < 0) break;
      m = e;
    }
    let boundary: boolean;
    if (m >= le) boundary = true;
    else if (CJK_TERMINATORS.has(text[j - 1])) boundary = true;
    else if (!isSpace(text[m]) && text[m] !== ZERO_WIDTH_SPACE) boundary = false; // 3.5, $4.99, v1.2.3, example.com, a.m, ?q= in a URL
    else {
      let n = m;
      while (n < le && isGap(text[n])) n++;
      boundary = n >= le || endsSentence(text, segStart, i, j, closedQuote, text[n]);
    }
    if (!boundary) {
      i = j;
      continue;
    }
    push(segStart, m, true);
    segStart = m;
    i = m;
  }
  push(segStart, le, false);
}

/**
 * Splits a message into sentences. A line break always ends a sentence (a
 * chat line is typed on purpose), so does end punctuation followed by a space
 * and a sentence start; abbreviations, initials, decimals, times, URLs,
 * version numbers and list markers do not split. Empty lines give nothing.
 */
export function splitSentences(text: string): SentenceSpan[] {
  return splitSentencesDetailed(text).map(({ text: t, start, end }) => ({ text: t, start, end }));
}

/** {@link splitSentences} with each sentence's list marker start and whether it has end punctuation. */
export function splitSentencesDetailed(text: string): SentenceDetail[] {
  const out: SentenceDetail[] = [];
  let ls = 0;
  for (const br of text.matchAll(LINE_BREAK)) {
    splitLine(text, ls, br.index, out);
    ls = br.index + br[0].length;
  }
  splitLine(text, ls, text.length, out);
  return out;
}

const SINGLE_QUOTES = /[\u2018\u2019\u201B\u2032\u02BC\u00B4`]/g;
const DOUBLE_QUOTES = /[\u201C\u201D\u201E\u201F\u2033]/g;

/**
 * The invisible format characters (`\p{Cf}` of the Basic Multilingual Plane: soft hyphen, Arabic
 * letter mark, Mongolian vowel separator, zero-width space, direction marks and embeddings, word
 * joiner and its kin, interlinear annotation marks) that a reader reads past and the quote check
 * and recognition do too. Not the joiners that join (ZWJ in an emoji sequence, ZWNJ in a Persian
 * word), not the BOM (read as white space), and not the format characters that show (the Arabic
 * number signs U+0600-0605, U+06DD, the Syriac abbreviation mark U+070F). The forget's search
 * for copies reads the same class in SQL (src/store/sql-lexical-forget.ts, `QUOTE_FORM`).
 */
const INVISIBLE_FORMAT_RANGES: ReadonlyArray<readonly [number, number]> = [
  [0xad, 0xad], [0x61c, 0x61c], [0x180e, 0x180e], [0x200b, 0x200b], [0x200e, 0x200f], [0x202a, 0x202e],
  [0x2060, 0x2064], [0x2066, 0x206f], [0xfff9, 0xfffb],
];
const hex = (c: number): string => `\\u${c.toString(16).padStart(4, '0')}`;
/** `INVISIBLE_FORMAT_RANGES` as a character class (`[\u00ad…]`): the regular expression's, and the SQL's. */
export const INVISIBLE_FORMAT_CLASS = `[${INVISIBLE_FORMAT_RANGES.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('')}]`;
export const INVISIBLE_FORMAT = new RegExp(INVISIBLE_FORMAT_CLASS, 'g');

/** `INVISIBLE_FORMAT`, a unit at a time (a long message is read a unit at a time: no regular expression per unit). */
function isFormatUnit(c: number): boolean {
  if (c < 0xad) return false;
  for (const [a, b] of INVISIBLE_FORMAT_RANGES) if (c >= a && c <= b) return true;
  return false;
}

/**
 * A text in Unicode's composed form (NFC), with, for each of its UTF-16 units, the offset it came
 * from (`map`; null when the text was composed already, nearly always). A letter and the marks
 * after it (and a Hangul syllable's jamo) are composed together, each unit of the result mapped to
 * the letter: "Zu\u0308rich" (as macOS types it) reads as "Z\u00fcrich" (as most models write it).
 */
function composed(text: string): { text: string; map: Int32Array | null } {
  const nfc = text.normalize('NFC');
  if (nfc === text) return { text, map: null };
  let out = '';
  const map: number[] = [];
  for (const m of text.matchAll(/[\s\S][\p{M}\u1160-\u11ff]*/gu)) {
    const piece = m[0].normalize('NFC');
    out += piece;
    for (let u = 0; u < piece.length; u++) map.push(m.index!);
  }
  return { text: out, map: Int32Array.from(map) };
}

/**
 * The only normalisation the quote check allows: runs of whitespace become
 * one space, leading/trailing whitespace goes, and quote/apostrophe styles
 * are unified (’ ‘ ′ ` → ', “ ” „ → "); the text is read composed (NFC) and
 * without invisible format characters (`INVISIBLE_FORMAT`). Letter case and everything else stay.
 */
export function normalizeForQuote(text: string): string {
  return composed(text).text
    .replace(INVISIBLE_FORMAT, '')
    .replace(SINGLE_QUOTES, "'")
    .replace(DOUBLE_QUOTES, '"')
    .replace(/\s+/g, ' ')
    .trim();
}

/** A normalised text with, for each of its UTF-16 units, the offset of the original character it came from. */
export interface MappedText {
  text: string;
  /** Non-decreasing; `map[k]` is the original offset of normalised unit `k`. */
  map: ArrayLike<number>;
}

/**
 * {@link normalizeForQuote} that remembers where each character came from, so
 * sentence offsets can be carried over. `foldCase` lower-cases too; it is used
 * only to explain a refusal ("only the letter case differs"), never to accept.
 */
export function normalizeMapped(original: string, foldCase = false): MappedText {
  if (foldCase) return lowerCased(normalizeMapped(original));
  const { text, map: from } = composed(original);
  // One pass over the UTF-16 units, the units kept as they are copied over in runs: a long message
  // is read whole, and a regular expression per character made this most of that reading.
  let out = '';
  // (never longer than the text: white space only shrinks, every other unit stays one unit)
  const map = new Int32Array(text.length);
  let n = 0;
  let pendingSpace = -1;
  let run = 0;
  let pairLow = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // (the second unit of a surrogate pair comes from the pair's first)
    let at = i;
    if (i === pairLow) at = i - 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) pairLow = i + 1;
    if (isSpaceUnit(c)) {
      out += text.slice(run, i);
      run = i + 1;
      if (pendingSpace < 0 && n > 0) pendingSpace = i;
      continue;
    }
    if (isFormatUnit(c)) {
      out += text.slice(run, i);
      run = i + 1;
      continue;
    }
    const quote = quoteUnit(c);
    if (pendingSpace >= 0 || quote !== null) {
      out += text.slice(run, i);
      run = quote === null ? i : i + 1;
      if (pendingSpace >= 0) {
        out += ' ';
        map[n++] = pendingSpace;
        pendingSpace = -1;
      }
      if (quote !== null) out += quote;
    }
    map[n++] = at;
  }
  out += text.slice(run);
  const mapped = map.subarray(0, n);
  // (offsets in the composed text, carried back to the text as typed)
  if (from) for (let k = 0; k < n; k++) mapped[k] = from[mapped[k]!]!;
  return { text: out, map: mapped };
}

/** White space as `/\s/` reads it (each such character is one UTF-16 unit). */
function isSpaceUnit(c: number): boolean {
  return c === 0x20 || (c >= 0x09 && c <= 0x0d) || (c > 0x7f && (c === 0xa0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a)
    || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000 || c === 0xfeff));
}

/** The quote mark a unit becomes (SINGLE_QUOTES, DOUBLE_QUOTES), or null if it stays. */
function quoteUnit(c: number): string | null {
  if (c === 0x60 || c === 0xb4 || c === 0x2bc || c === 0x2018 || c === 0x2019 || c === 0x201b || c === 0x2032) return "'";
  if (c === 0x201c || c === 0x201d || c === 0x201e || c === 0x201f || c === 0x2033) return '"';
  return null;
}

/**
 * A mapped text lower-cased a character at a time (a character's lower case may be longer than it:
 * each of its units maps where the character came from).
 */
function lowerCased(m: MappedText): MappedText {
  let out = '';
  const map: number[] = [];
  let k = 0;
  for (const ch of m.text) {
    const lower = ch.toLowerCase();
    out += lower;
    // (unit for unit when the length stays: two halves of a pair brought together by a character read past keep their own places)
    for (let u = 0; u < lower.length; u++) map.push(m.map[lower.length === ch.length ? k + u : k]!);
    k += ch.length;
  }
  return { text: out, map };
}
