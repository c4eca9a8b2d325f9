/**
 * "Only the person's words": the assistant keeps something only by handing
 * over whole sentence(s), word for word, of one USER message of the
 * conversation. This module decides whether a quote qualifies and, when it
 * does not, says why in a way the assistant can act on. Pure: no I/O.
 * The rules, with examples, are in docs/quote-check.md.
 */
import { trimInvisible } from './normalize.js';
import { normalizeForQuote, normalizeMapped, splitSentences, splitSentencesDetailed, type MappedText, type SentenceDetail } from './sentences.js';
import { REDACTION_MARK } from './scrub.js';

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
 * - `EMPTY`: nothing but whitespace and invisible format characters.
 * - `FRAGMENT`: the person typed these words, but not as whole sentence(s): part of a sentence,
 *   a sentence with words left out, or sentences that are not consecutive.
 * - `NOT_FOUND`: the person never typed this in this conversation (paraphrase, other letter case,
 *   another conversation).
 * - `ASSISTANT_WORDS`: the text is the assistant's own, not the person's.
 * - `FORGOTTEN`: the quote takes in the redaction mark, which stands where words were forgotten
 *   for good (docs/erasure.md): the mark is the server's, never the person's words.
 */
export type QuoteRefusal = 'EMPTY' | 'FRAGMENT' | 'NOT_FOUND' | 'ASSISTANT_WORDS' | 'FORGOTTEN';

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

/**
 * The messages prepared in order, each once, as far as a caller iterates (again from the first each
 * call). `key`: a word of the quote, lower-cased: a message whose normalised text does not hold it
 * (in any letter case) is never prepared nor yielded. Every way the check finds a quote in a message,
 * accepted or refused for a reason, needs each of its words there (whole, as a substring of the
 * normalised text: its sentences, the text itself, the words left out, the words in another case),
 * so leaving such a message out changes no answer; reading it whole (sentences, offsets) was most of
 * the check's cost on a long conversation. Skipped messages come as null.
 */
function preparedInTurn(msgs: TranscriptMessage[], key: string | null): () => Generator<Prepared | null> {
  // per message: its reading, or null (skipped); a message is read (or skipped) once, when first reached
  const done: (Prepared | null)[] = [];
  return function* () {
    for (let i = 0; i < msgs.length; i++) {
      if (i === done.length) {
        const msg = msgs[i]!;
        done.push(key === null || folded(normalizeForQuote(msg.text)).includes(key) ? prepare(msg) : null);
      }
      // (a skipped message is yielded too, as null: the check's caller may pause after each message)
      yield done[i]!;
    }
  };
}

/**
 * Lower case without context: the final sigma (the one mapping that depends on the letters around it)
 * read as any sigma, so that a word lower-cased alone is found in the text lower-cased whole.
 */
const folded = (text: string): string => text.toLowerCase().replace(/ς/g, 'σ');

/** The quote's longest word, folded (the one fewest messages hold), or null if it has none. */
function keyWord(q: string): string | null {
  let best: string | null = null;
  for (const t of tokens(q)) if (best === null || t.length > best.length) best = t;
  return best === null ? null : folded(best);
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
function occurrences(hay: string, needle: string, limit = Number.POSITIVE_INFINITY): number[] {
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

const CHAR_HASHES = new WeakMap<Prepared, number[]>();
function charHashes(prep: Prepared): number[] {
  let h = CHAR_HASHES.get(prep);
  if (!h) CHAR_HASHES.set(prep, (h = prefixOfChars(prep.norm.text)));
  return h;
}
/** Polynomial prefix hashes of a string's characters (same base and modulus as prefixHashes). */
function prefixOfChars(text: string): number[] {
  const out = new Array<number>(text.length + 1);
  out[0] = 0;
  for (let i = 0; i < text.length; i++) out[i + 1] = (out[i]! * HASH_BASE + text.charCodeAt(i) + 1) % HASH_MOD;
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

/** Longest quote (in words) for which a left-out-words diagnosis is attempted. */
const DROPPED_MAX_TOKENS = 400;

/**
 * A run of consecutive sentences whose words contain the quote's words in
 * order, with some left out ("My favorite number is 1729." from "My favorite
 * number is not 1729."). The quote must keep at least half the run's words,
 * so that a few common words scattered over a long message do not count.
 */
function droppedWords(prep: Prepared, qTokens: string[]): string | null {
  // Bounded work (issue 12): each start reads at most 2 x the quote's tokens, matched greedily as the run
  // grows (no re-joined runs), and the diagnosis is only tried for quotes of up to DROPPED_MAX_TOKENS words;
  // a longer quote with words left out is still refused, as NOT_FOUND.
  const q = qTokens.length;
  if (q < 2 || q > DROPPED_MAX_TOKENS) return null;
  const sentTokens = prep.sentences.map((s) => tokens(normalizeForQuote(s.text)));
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
function sameWordsOtherwise(prep: Prepared, qTokens: string[]): string | null {
  const lower = (ts: string[]): string => ts.map((t) => t.toLowerCase()).join(' ');
  const want = lower(qTokens);
  if (!want) return null;
  // Runs of whole sentences holding exactly as many tokens as the quote, found with two pointers over
  // the sentences' token counts and compared by a rolling hash (one string comparison confirms a hit):
  // linear, where joining every run of every start was cubic on long messages.
  const sentTokens = prep.sentences.map((s) => tokens(normalizeForQuote(s.text)).map((t) => t.toLowerCase()));
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
function spanHash(prefix: readonly number[], a: number, b: number): number {
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
function notConsecutive(prep: Prepared, quote: string): boolean {
  const pieces = splitSentences(quote).map((p) => normalizeForQuote(p.text));
  if (pieces.length < 2) return false;
  return pieces.every((p) => wholeSentences(prep, p) !== null);
}

const refuse = (reason: QuoteRefusal, detail: string): QuoteCheckResult => ({ ok: false, reason, detail });

/** A sentence that is the redaction mark: a forget's, on a line of its own (src/core/scrub.ts). */
const isMark = (sentence: string): boolean => normalizeForQuote(sentence) === REDACTION_MARK;
/** Whether a run of a message's sentences, or a text made of whole sentences, takes in a redaction mark. */
const marksIn = (prep: Prepared, first: number, last: number): boolean => prep.sentences.slice(first, last + 1).some((x) => isMark(x.text));
const holdsMark = (text: string): boolean => splitSentences(text).some((x) => isMark(x.text));
const forgottenRefusal = (): QuoteCheckResult => refuse('FORGOTTEN',
  `"${REDACTION_MARK}" stands where words were forgotten for good: it is not the person's words; quote only what the person typed around it`);

/**
 * Checks that `quote` is one sentence, or several consecutive sentences, of
 * one USER message of `transcript`, word for word after normalising only
 * spacing and quote/apostrophe styles. When several user messages hold it,
 * the latest wins (most recent `at`, then last in the array). Only the
 * conversation's own transcript is passed in, so words from another
 * conversation end as `NOT_FOUND`.
 */
export function checkQuote(quote: string, transcript: TranscriptMessage[]): QuoteCheckResult {
  const steps = quoteCheckSteps(quote, transcript);
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * `checkQuote` one message at a time: the generator yields after each message it weighed (its
 * reading of a long message is the costly part), so a caller may let other work run between
 * (src/memory/conversations.ts); run to its end it returns the check's answer.
 */
export function* quoteCheckSteps(quote: string, transcript: TranscriptMessage[]): Generator<void, QuoteCheckResult> {
  const q = normalizeForQuote(quote);
  // (invisible format characters alone, a zero-width space or a direction mark, show nothing either)
  if (!trimInvisible(q)) return refuse('EMPTY', 'the quote is empty');

  // Latest first: the person's most recent wording is the one to keep.
  const ordered = transcript
    .map((msg, i) => ({ msg, i }))
    .sort((a, b) => b.msg.at.getTime() - a.msg.at.getTime() || b.i - a.i)
    .map((x) => x.msg);
  // Each message read (sentences, normalised text) only when a search gets to it: a quote of the
  // latest message reads that one alone, however long the conversation.
  const key = keyWord(q);
  const users = preparedInTurn(ordered.filter((m) => m.role === 'USER'), key);
  const assistants = preparedInTurn(ordered.filter((m) => m.role === 'ASSISTANT'), key);

  for (const prep of users()) {
    yield;
    if (!prep) continue;
    const m = wholeSentences(prep, q);
    if (m) {
      if (marksIn(prep, m.first, m.last)) return forgottenRefusal();
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
  for (const prep of users()) {
    yield;
    if (!prep) continue;
    for (const needle of needles) {
      const s = occurrences(prep.norm.text, needle, 1)[0];
      if (s !== undefined) {
        const around = sentencesAround(prep, s, s + needle.length);
        if (holdsMark(around)) return forgottenRefusal();
        return refuse('FRAGMENT', `the quote is part of a sentence: "${around}"`);
      }
    }
  }
  for (const prep of users()) {
    yield;
    if (!prep) continue;
    if (notConsecutive(prep, quote)) {
      if (holdsMark(quote)) return forgottenRefusal();
      return refuse('FRAGMENT', 'the quoted sentences are not consecutive in the message; quote them one at a time');
    }
  }
  // Before "words left out": a text the assistant wrote verbatim is its own, however close to the person's.
  for (const prep of assistants()) {
    yield;
    if (!prep) continue;
    if (needles.some((n) => occurrences(prep.norm.text, n, 1).length > 0)) {
      if (holdsMark(quote)) return forgottenRefusal();
      return refuse('ASSISTANT_WORDS', `these are the assistant's words (message ${prep.msg.id}), not the person's; quote what the person wrote`);
    }
  }
  const qTokens = tokens(q);
  for (const prep of users()) {
    yield;
    if (!prep) continue;
    const sentence = droppedWords(prep, qTokens);
    if (sentence && holdsMark(sentence)) return forgottenRefusal();
    if (sentence) return refuse('FRAGMENT', `words are left out of the sentence: "${sentence}"`);
  }
  for (const prep of users()) {
    yield;
    if (!prep) continue;
    const sentence = sameWordsOtherwise(prep, qTokens);
    if (sentence && holdsMark(sentence)) return forgottenRefusal();
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
