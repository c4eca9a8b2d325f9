/**
 * "Only the person's words": the assistant keeps something only by handing
 * over whole sentence(s), word for word, of one USER message of the
 * conversation. This module decides whether a quote qualifies and, when it
 * does not, says why in a way the assistant can act on. Pure: no I/O.
 * The rules, with examples, are in docs/quote-check.md.
 */
import { normalizeForQuote, normalizeMapped, splitSentences, splitSentencesDetailed, type MappedText, type SentenceDetail } from './sentences.js';

export type Role = 'USER' | 'ASSISTANT';

/** One message of the conversation's transcript, as recorded by the chat side (never by the assistant). */
export interface TranscriptMessage {
  id: string;
  role: Role;
  text: string;
  at: Date;
}

/**
 * Why a quote was refused.
 * - `EMPTY`: nothing but whitespace.
 * - `FRAGMENT`: the person typed these words, but not as whole sentence(s): part of a sentence,
 *   a sentence with words left out, or sentences that are not consecutive.
 * - `NOT_FOUND`: the person never typed this in this conversation (paraphrase, other letter case,
 *   another conversation).
 * - `ASSISTANT_WORDS`: the text is the assistant's own, not the person's.
 */
export type QuoteRefusal = 'EMPTY' | 'FRAGMENT' | 'NOT_FOUND' | 'ASSISTANT_WORDS';

/** Outcome of {@link checkQuote}. */
export type QuoteCheckResult =
  | {
      ok: true;
      messageId: string;
      at: Date;
      /** The exact original text of the matched sentence(s), as the person typed it (not the assistant's copy). */
      quote: string;
      /** Index of the first matched sentence in the message. */
      sentenceIndex: number;
      sentenceCount: number;
      /** The sentence just before, in the same message, or null; lets a correction in the next sentence be seen. */
      previousSentence: string | null;
      /** The full message text. */
      message: string;
    }
  | { ok: false; reason: QuoteRefusal; detail: string };

interface Prepared {
  msg: TranscriptMessage;
  sentences: SentenceDetail[];
  norm: MappedText;
  nStart: number[];
  nLead: number[];
  nEnd: number[];
}

interface Match {
  prep: Prepared;
  first: number;
  last: number;
}

/** First normalised index whose original offset is >= `offset`. */
function lowerBound(map: number[], offset: number): number {
  let lo = 0;
  let hi = map.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (map[mid] < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function prepare(msg: TranscriptMessage): Prepared {
  const sentences = splitSentencesDetailed(msg.text);
  const norm = normalizeMapped(msg.text);
  return {
    msg,
    sentences,
    norm,
    nStart: sentences.map((s) => lowerBound(norm.map, s.start)),
    nLead: sentences.map((s) => lowerBound(norm.map, s.markerStart)),
    nEnd: sentences.map((s) => lowerBound(norm.map, s.end)),
  };
}

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/** Start offsets of `needle` in `hay` that do not cut a word in two ("cat" is not in "category"). */
function occurrences(hay: string, needle: string): number[] {
  const out: number[] = [];
  if (!needle) return out;
  for (let s = hay.indexOf(needle); s >= 0; s = hay.indexOf(needle, s + 1)) {
    const e = s + needle.length;
    const cutsStart = isWordChar(needle[0]) && isWordChar(hay[s - 1]);
    const cutsEnd = isWordChar(needle[needle.length - 1]) && isWordChar(hay[e]);
    if (!cutsStart && !cutsEnd) out.push(s);
  }
  return out;
}

/** The quote without a final run of end punctuation, or null when it has none. */
function withoutFinalPunctuation(q: string): string | null {
  const stripped = q.replace(/\s*[.!?…]+$/u, '');
  return stripped !== q && stripped.length > 0 ? stripped : null;
}

/**
 * Whole-sentence match of the normalised quote `q` in one message: the match
 * starts where a sentence (or its list marker) starts and ends where a
 * sentence ends. The quote may add end punctuation only where the person
 * typed none (end of message, end of line).
 */
function wholeSentences(prep: Prepared, q: string): Match | null {
  const tryText = (needle: string, mustBeUnterminated: boolean): Match | null => {
    for (const s of occurrences(prep.norm.text, needle)) {
      const e = s + needle.length;
      const first = prep.sentences.findIndex((_, i) => prep.nStart[i] === s || prep.nLead[i] === s);
      if (first < 0) continue;
      for (let last = first; last < prep.sentences.length; last++) {
        if (prep.nEnd[last] > e) break;
        if (prep.nEnd[last] === e && (!mustBeUnterminated || !prep.sentences[last].terminated)) {
          return { prep, first, last };
        }
      }
    }
    return null;
  };
  const stripped = withoutFinalPunctuation(q);
  return tryText(q, false) ?? (stripped ? tryText(stripped, true) : null);
}

/** The original text of sentences `first..last` of a message. */
function spanText(prep: Prepared, first: number, last: number): string {
  return prep.msg.text.slice(prep.sentences[first].start, prep.sentences[last].end);
}

/** Sentences of the message that the normalised range [s, e) touches. */
function sentencesAround(prep: Prepared, s: number, e: number): string {
  let first = prep.sentences.findIndex((_, i) => prep.nEnd[i] > s);
  if (first < 0) first = prep.sentences.length - 1;
  let last = first;
  while (last + 1 < prep.sentences.length && prep.nLead[last + 1] < e) last++;
  return spanText(prep, first, last);
}

/** Word tokens, case kept: the unit for "words left out". */
function tokens(text: string): string[] {
  return [...text.matchAll(/[\p{L}\p{N}]+(?:['.\-][\p{L}\p{N}]+)*/gu)].map((m) => m[0]);
}

function isSubsequence(needle: string[], hay: string[]): boolean {
  let k = 0;
  for (const t of hay) if (k < needle.length && t === needle[k]) k++;
  return k === needle.length;
}

/**
 * A run of consecutive sentences whose words contain the quote's words in
 * order, with some left out ("My favorite number is 1729." from "My favorite
 * number is not 1729."). The quote must keep at least half the run's words,
 * so that a few common words scattered over a long message do not count.
 */
function droppedWords(prep: Prepared, qTokens: string[]): string | null {
  if (qTokens.length < 2) return null;
  const sentTokens = prep.sentences.map((s) => tokens(normalizeForQuote(s.text)));
  for (let first = 0; first < sentTokens.length; first++) {
    let run: string[] = [];
    for (let last = first; last < sentTokens.length; last++) {
      run = run.concat(sentTokens[last]);
      if (run.length > 2 * qTokens.length) break;
      if (run.length > qTokens.length && isSubsequence(qTokens, run)) return spanText(prep, first, last);
    }
  }
  return null;
}

/** The person's sentence(s) whose words equal the quote's once letter case and punctuation are ignored. */
function sameWordsOtherwise(prep: Prepared, qTokens: string[]): string | null {
  const lower = (ts: string[]): string => ts.map((t) => t.toLowerCase()).join(' ');
  const want = lower(qTokens);
  if (!want) return null;
  const sentTokens = prep.sentences.map((s) => tokens(normalizeForQuote(s.text)));
  for (let first = 0; first < sentTokens.length; first++) {
    let run: string[] = [];
    for (let last = first; last < sentTokens.length && run.length < qTokens.length; last++) {
      run = run.concat(sentTokens[last]);
      if (lower(run) === want) return spanText(prep, first, last);
    }
  }
  return null;
}

/** Each quoted sentence is a whole sentence of the message, but they are not one consecutive run. */
function notConsecutive(prep: Prepared, quote: string): boolean {
  const pieces = splitSentences(quote).map((p) => normalizeForQuote(p.text));
  if (pieces.length < 2) return false;
  return pieces.every((p) => wholeSentences(prep, p) !== null);
}

const refuse = (reason: QuoteRefusal, detail: string): QuoteCheckResult => ({ ok: false, reason, detail });

/**
 * Checks that `quote` is one sentence, or several consecutive sentences, of
 * one USER message of `transcript`, word for word after normalising only
 * spacing and quote/apostrophe styles. When several user messages hold it,
 * the latest wins (most recent `at`, then last in the array). Only the
 * conversation's own transcript is passed in, so words from another
 * conversation end as `NOT_FOUND`.
 */
export function checkQuote(quote: string, transcript: TranscriptMessage[]): QuoteCheckResult {
  const q = normalizeForQuote(quote);
  if (!q) return refuse('EMPTY', 'the quote is empty');

  // Latest first: the person's most recent wording is the one to keep.
  const ordered = transcript
    .map((msg, i) => ({ msg, i }))
    .sort((a, b) => b.msg.at.getTime() - a.msg.at.getTime() || b.i - a.i)
    .map((x) => x.msg);
  const users = ordered.filter((m) => m.role === 'USER').map((m) => prepare(m));
  const assistants = ordered.filter((m) => m.role === 'ASSISTANT').map((m) => prepare(m));

  for (const prep of users) {
    const m = wholeSentences(prep, q);
    if (m) {
      return {
        ok: true,
        messageId: prep.msg.id,
        at: prep.msg.at,
        quote: spanText(prep, m.first, m.last),
        sentenceIndex: m.first,
        sentenceCount: m.last - m.first + 1,
        previousSentence: m.first > 0 ? prep.sentences[m.first - 1].text : null,
        message: prep.msg.text,
      };
    }
  }

  const stripped = withoutFinalPunctuation(q);
  const needles = stripped ? [q, stripped] : [q];
  for (const prep of users) {
    for (const needle of needles) {
      const s = occurrences(prep.norm.text, needle)[0];
      if (s !== undefined) {
        return refuse('FRAGMENT', `the quote is part of a sentence: "${sentencesAround(prep, s, s + needle.length)}"`);
      }
    }
  }
  for (const prep of users) {
    if (notConsecutive(prep, quote)) {
      return refuse('FRAGMENT', 'the quoted sentences are not consecutive in the message; quote them one at a time');
    }
  }
  // Before "words left out": a text the assistant wrote verbatim is its own, however close to the person's.
  for (const prep of assistants) {
    if (needles.some((n) => occurrences(prep.norm.text, n).length > 0)) {
      return refuse('ASSISTANT_WORDS', `these are the assistant's words (message ${prep.msg.id}), not the person's; quote what the person wrote`);
    }
  }
  const qTokens = tokens(q);
  for (const prep of users) {
    const sentence = droppedWords(prep, qTokens);
    if (sentence) return refuse('FRAGMENT', `words are left out of the sentence: "${sentence}"`);
  }
  for (const prep of users) {
    const sentence = sameWordsOtherwise(prep, qTokens);
    if (sentence) {
      return refuse('NOT_FOUND', `not word for word; the person wrote: "${sentence}" (same letter case and punctuation needed)`);
    }
  }
  return refuse('NOT_FOUND', 'the person did not write this in this conversation (paraphrases are refused)');
}

/**
 * How a kept quote is read back: `On 2026-09-21 you wrote: "I grew up in Duluth."`
 * The date is the UTC calendar day of `at`.
 */
export function attribution(at: Date, quote: string): string {
  return `On ${at.toISOString().slice(0, 10)} you wrote: "${quote}"`;
}
