/**
 * Where a quote stands in one message (src/core/quote-check.ts weighs the messages in turn): each
 * message read once (its sentences and its normalised text, mapped to the original offsets), and
 * the searches each way of finding a quote needs: whole sentences, a part of a sentence, sentences
 * that are not consecutive, words left out, the same words otherwise. Pure: no I/O.
 */
import { normalizeForQuote, normalizeMapped, splitSentences, splitSentencesDetailed, type MappedText, type SentenceDetail } from './sentences.js';
import type { TranscriptMessage } from './quote-check.js';

export interface Prepared {
  msg: TranscriptMessage;
  sentences: SentenceDetail[];
  norm: MappedText;
  nStart: number[];
  nLead: number[];
  nEnd: number[];
  /** Each sentence's word tokens, normalised, case kept: read once, for the searches that need them (`sentenceTokens`). */
  tokens?: string[][];
  /** The normalised text lower-cased without context (`folded`). */
  folded: string;
}

/** Each sentence's word tokens, normalised, case kept (read once per message). */
function sentenceTokens(prep: Prepared): string[][] {
  return (prep.tokens ??= prep.sentences.map((s) => tokens(normalizeForQuote(s.text))));
}

interface Match {
  prep: Prepared;
  first: number;
  last: number;
}

/** First normalised index whose original offset is >= `offset`. */
function lowerBound(map: ArrayLike<number>, offset: number): number {
  let lo = 0;
  let hi = map.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (map[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * A message read for the searches (its sentences, its normalised text mapped to the original
 * offsets), or null when it cannot hold the quote. `key`: a word of the quote, lower-cased: a
 * message whose normalised text does not hold it (in any letter case) is not read further. Every
 * way the check finds a quote in a message, accepted or refused for a reason, needs each of its
 * words there (whole, as a substring of the normalised text: its sentences, the text itself, the
 * words left out, the words in another case), so leaving such a message out changes no answer;
 * reading it whole (sentences, offsets) was most of the check's cost on a long conversation.
 */
export function readMessage(msg: TranscriptMessage, key: string | null): Prepared | null {
  const norm = normalizeMapped(msg.text);
  const lower = folded(norm.text);
  if (key !== null && !lower.includes(key)) return null;
  return prepare(msg, norm, lower);
}

/**
 * Whether the message holds every word of the quote (`quoteWords`), in some letter case: what
 * every refusal but "not found" needs, as the key word above (a quote of an older message then
 * costs the later messages that hold its longest word a search for it, not every refusal's).
 */
export const holdsEvery = (prep: Prepared, words: readonly string[]): boolean => words.every((w) => prep.folded.includes(w));

/** The quote's words, folded as `holdsEvery` reads them. */
export const quoteWords = (q: string): string[] => [...new Set(tokens(q).map(folded))];

/**
 * Lower case without context: the final sigma (the one mapping that depends on the letters around it)
 * read as any sigma, so that a word lower-cased alone is found in the text lower-cased whole.
 */
const folded = (text: string): string => text.toLowerCase().replace(/ς/g, 'σ');

/** The quote's longest word, folded (the one fewest messages hold), or null if it has none. */
export function keyWord(q: string): string | null {
  let best: string | null = null;
  for (const t of tokens(q)) if (best === null || t.length > best.length) best = t;
  return best === null ? null : folded(best);
}

function prepare(msg: TranscriptMessage, norm: MappedText, lower: string): Prepared {
  const sentences = splitSentencesDetailed(msg.text);
  return {
    msg,
    folded: lower,
    sentences,
    norm,
    nStart: sentences.map((s) => lowerBound(norm.map, s.start)),
    nLead: sentences.map((s) => lowerBound(norm.map, s.markerStart)),
    nEnd: sentences.map((s) => lowerBound(norm.map, s.end)),
  };
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Start offsets of `needle` in `hay` that do not cut a word in two ("cat" is not in "category"). */
export function occurrences(hay: string, needle: string, limit = Number.POSITIVE_INFINITY): number[] {
  const out: number[] = [];
  if (!needle) return out;
  const wordStart = isWordChar(needle[0]);
  for (let s = hay.indexOf(needle); s >= 0; ) {
    const e = s + needle.length;
    const cutsStart = wordStart && isWordChar(hay[s - 1]);
    const cutsEnd = isWordChar(needle[needle.length - 1]) && isWordChar(hay[e]);
    if (!cutsStart && !cutsEnd && out.push(s) >= limit) break;
    // A needle opening with a word character can only start a word: skip the rest of this one
    // (retrying every letter of a long word made this quadratic).
    let next = s + 1;
    if (wordStart) while (next < hay.length && isWordChar(hay[next]) && isWordChar(hay[next - 1])) next++;
    s = hay.indexOf(needle, next);
  }
  return out;
}

/** The quote without a final run of end punctuation, or null when it has none. */
export function withoutFinalPunctuation(q: string): string | null {
  const stripped = q.replace(/\s*[.!?…]+$/u, '');
  return stripped !== q && stripped.length > 0 ? stripped : null;
}

/**
 * Whole-sentence match of the normalised quote `q` in one message: the match
 * starts where a sentence (or its list marker) starts and ends where a
 * sentence ends. The quote may add end punctuation only where the person
 * typed none (end of message, end of line).
 */
export function wholeSentences(prep: Prepared, q: string): Match | null {
  // Only sentence starts can start a match: each is tried once, compared by a rolling hash of the
  // normalised text (a string comparison confirms), and its end found by binary search. Linear, where
  // trying every occurrence of a repetitive quote against every sentence was quadratic (issue 12).
  const text = prep.norm.text;
  const hashes = charHashes(prep);
  const tryText = (needle: string, mustBeUnterminated: boolean): Match | null => {
    const want = prefixOfChars(needle)[needle.length]!;
    const firstWord = isWordChar(needle[0]);
    const lastWord = isWordChar(needle[needle.length - 1]);
    for (let first = 0; first < prep.sentences.length; first++) {
      for (const s of prep.nLead[first] === prep.nStart[first] ? [prep.nStart[first]!] : [prep.nLead[first]!, prep.nStart[first]!]) {
        const e = s + needle.length;
        if (e > text.length || spanHash(hashes, s, e) !== want || !text.startsWith(needle, s)) continue;
        if ((firstWord && isWordChar(text[s - 1])) || (lastWord && isWordChar(text[e]))) continue;
        const last = sentenceEndingAt(prep.nEnd, e, first);
        if (last >= 0 && (!mustBeUnterminated || !prep.sentences[last].terminated)) return { prep, first, last };
      }
    }
    return null;
  };
  const stripped = withoutFinalPunctuation(q);
  return tryText(q, false) ?? (stripped ? tryText(stripped, true) : null);
}

const CHAR_HASHES = new WeakMap<Prepared, Int32Array>();
function charHashes(prep: Prepared): Int32Array {
  let h = CHAR_HASHES.get(prep);
  if (!h) CHAR_HASHES.set(prep, (h = prefixOfChars(prep.norm.text)));
  return h;
}
/** Polynomial prefix hashes of a string's characters (same base and modulus as prefixHashes). */
function prefixOfChars(text: string): Int32Array {
  // (typed: every hash is below HASH_MOD < 2^31; an Array of 100,001 numbers was most of a long message's hashing)
  const out = new Int32Array(text.length + 1);
  let h = 0;
  for (let i = 0; i < text.length; i++) out[i + 1] = h = (h * HASH_BASE + text.charCodeAt(i) + 1) % HASH_MOD;
  return out;
}
/** The sentence at or after `from` whose normalised end is `e` (ends increase), or -1. */
function sentenceEndingAt(nEnd: readonly number[], e: number, from: number): number {
  let lo = from;
  let hi = nEnd.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (nEnd[mid]! < e) lo = mid + 1;
    else if (nEnd[mid]! > e) hi = mid - 1;
    else return mid;
  }
  return -1;
}

/** The original text of sentences `first..last` of a message. */
export function spanText(prep: Prepared, first: number, last: number): string {
  return prep.msg.text.slice(prep.sentences[first].start, prep.sentences[last].end);
}

/** Sentences of the message that the normalised range [s, e) touches. */
export function sentencesAround(prep: Prepared, s: number, e: number): string {
  let first = prep.sentences.findIndex((_, i) => prep.nEnd[i] > s);
  if (first < 0) first = prep.sentences.length - 1;
  let last = first;
  while (last + 1 < prep.sentences.length && prep.nLead[last + 1] < e) last++;
  return spanText(prep, first, last);
}

/** Word tokens, case kept: the unit for "words left out". */
export function tokens(text: string): string[] {
  return [...text.matchAll(/[\p{L}\p{N}]+(?:['.\-][\p{L}\p{N}]+)*/gu)].map((m) => m[0]);
}

/** Longest quote (in words) for which a left-out-words diagnosis is attempted. */
const DROPPED_MAX_TOKENS = 400;

/**
 * A run of consecutive sentences whose words contain the quote's words in
 * order, with some left out ("My favorite number is 1729." from "My favorite
 * number is not 1729."). The quote must keep at least half the run's words,
 * so that a few common words scattered over a long message do not count.
 */
export function droppedWords(prep: Prepared, qTokens: string[]): string | null {
  // Bounded work (issue 12): each start reads at most 2 x the quote's tokens, matched greedily as the run
  // grows (no re-joined runs), and the diagnosis is only tried for quotes of up to DROPPED_MAX_TOKENS words;
  // a longer quote with words left out is still refused, as NOT_FOUND.
  const q = qTokens.length;
  if (q < 2 || q > DROPPED_MAX_TOKENS) return null;
  const sentTokens = sentenceTokens(prep);
  for (let first = 0; first < sentTokens.length; first++) {
    let run = 0;
    let k = 0;
    for (let last = first; last < sentTokens.length; last++) {
      const ts = sentTokens[last]!;
      run += ts.length;
      if (run > 2 * q) break;
      for (const t of ts) if (k < q && t === qTokens[k]) k++;
      if (run > q && k === q) return spanText(prep, first, last);
    }
  }
  return null;
}

/** The person's sentence(s) whose words equal the quote's once letter case and punctuation are ignored. */
export function sameWordsOtherwise(prep: Prepared, qTokens: string[]): string | null {
  const lower = (ts: string[]): string => ts.map((t) => t.toLowerCase()).join(' ');
  const want = lower(qTokens);
  if (!want) return null;
  // Runs of whole sentences holding exactly as many tokens as the quote, found with two pointers over
  // the sentences' token counts and compared by a rolling hash (one string comparison confirms a hit):
  // linear, where joining every run of every start was cubic on long messages.
  const sentTokens = sentenceTokens(prep).map((ts) => ts.map((t) => t.toLowerCase()));
  const flat = sentTokens.flat();
  const bound = [0];
  for (const ts of sentTokens) bound.push(bound[bound.length - 1]! + ts.length);
  const prefix = prefixHashes(flat);
  const target = prefixHashes(want.split(' '));
  const q = qTokens.length;
  const wantHash = target[target.length - 1]!;
  let last = 0;
  for (let first = 0; first < sentTokens.length; first++) {
    if (last < first) last = first;
    while (last < sentTokens.length && bound[last + 1]! - bound[first]! < q) last++;
    if (last >= sentTokens.length) break;
    if (bound[last + 1]! - bound[first]! !== q) continue;
    if (spanHash(prefix, bound[first]!, bound[last + 1]!) === wantHash && lower(flat.slice(bound[first], bound[last + 1])) === want) {
      return spanText(prep, first, last);
    }
  }
  return null;
}

const HASH_MOD = 67_108_859;
const HASH_BASE = 131_071;
/** Polynomial prefix hashes of a token sequence (tokens reduced to a string hash first). */
function prefixHashes(ts: readonly string[]): number[] {
  const out = [0];
  for (const t of ts) {
    let h = 7;
    for (let i = 0; i < t.length; i++) h = (h * 31 + t.charCodeAt(i)) % HASH_MOD;
    out.push((out[out.length - 1]! * HASH_BASE + h + 1) % HASH_MOD);
  }
  return out;
}
/** Hash of tokens [a, b) from prefix hashes, comparable with a whole sequence's last prefix hash. */
function spanHash(prefix: ArrayLike<number>, a: number, b: number): number {
  let pow = 1;
  // HASH_BASE^(b-a) by squaring (spans are compared rarely: once per candidate run).
  let e = b - a;
  let base = HASH_BASE;
  while (e > 0) {
    if (e & 1) pow = (pow * base) % HASH_MOD;
    base = (base * base) % HASH_MOD;
    e >>= 1;
  }
  return (((prefix[b]! - prefix[a]! * pow) % HASH_MOD) + HASH_MOD) % HASH_MOD;
}

/** Each quoted sentence is a whole sentence of the message, but they are not one consecutive run. */
export function notConsecutive(prep: Prepared, pieces: readonly string[]): boolean {
  if (pieces.length < 2) return false;
  return pieces.every((p) => wholeSentences(prep, p) !== null);
}

/** A quote's sentences, each normalised: what `notConsecutive` looks for (read once per check). */
export const quotedSentences = (quote: string): string[] => splitSentences(quote).map((p) => normalizeForQuote(p.text));
