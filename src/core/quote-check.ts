/**
 * "Only the person's words": the assistant keeps something only by handing
 * over whole sentence(s), word for word, of one USER message of the
 * conversation. This module decides whether a quote qualifies and, when it
 * does not, says why in a way the assistant can act on. Pure: no I/O.
 * The rules, with examples, are in docs/quote-check.md.
 */
import { showsNothing } from './normalize.js';
import { normalizeForQuote, splitSentences } from './sentences.js';
import {
  droppedWords, holdsEvery, keyWord, notConsecutive, occurrences, quoteWords, quotedSentences, readMessage, sameWordsOtherwise, sentencesAround,
  spanText, tokens, wholeSentences, withoutFinalPunctuation, type Prepared,
} from './quote-match.js';
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
 *
 * The answers, strongest first: the quote found as whole sentence(s) of a person's message (the
 * latest such message); part of a sentence; sentences that are not consecutive; the assistant's
 * own words; words left out of a sentence; the same words in another letter case or punctuation;
 * not found. Each refusal is the first message's (latest first) that gives it. The person's
 * messages are read in one pass, each once and let go after (with every reading held to the end, a
 * check of 150 messages of 100,000 characters could not run in a 200 MB heap): each is searched
 * for the quote, and, if it holds every word of it, for the refusals that rank above the strongest
 * found so far.
 */
export function* quoteCheckSteps(quote: string, transcript: TranscriptMessage[]): Generator<void, QuoteCheckResult> {
  const q = normalizeForQuote(quote);
  // (invisible format characters alone, a zero-width space or a direction mark, show nothing either)
  if (showsNothing(q)) return refuse('EMPTY', 'the quote is empty');

  // Latest first: the person's most recent wording is the one to keep.
  const ordered = transcript
    .map((msg, i) => ({ msg, i }))
    .sort((a, b) => b.msg.at.getTime() - a.msg.at.getTime() || b.i - a.i)
    .map((x) => x.msg);
  // A message is read (sentences, normalised text) only if it holds the quote's longest word.
  const key = keyWord(q);
  const stripped = withoutFinalPunctuation(q);
  const needles = stripped ? [q, stripped] : [q];
  const pieces = quotedSentences(quote);
  const qTokens = tokens(q);
  const words = quoteWords(q);

  let best: Refused | null = null;
  const weighs = (rank: Rank) => best === null || rank < best.rank;
  for (const msg of ordered) {
    if (msg.role !== 'USER') continue;
    yield;
    const prep = readMessage(msg, key);
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
    if (holdsEvery(prep, words)) best = refusalIn(prep, { quote, needles, pieces, qTokens }, weighs) ?? best;
  }
  if (best && best.rank < Rank.AssistantWords) return best.result;
  // Before "words left out": a text the assistant wrote verbatim is its own, however close to the person's.
  for (const msg of ordered) {
    if (msg.role !== 'ASSISTANT') continue;
    yield;
    const prep = readMessage(msg, key);
    if (prep && needles.some((n) => occurrences(prep.norm.text, n, 1).length > 0)) {
      if (holdsMark(quote)) return forgottenRefusal();
      return refuse('ASSISTANT_WORDS', `these are the assistant's words (message ${prep.msg.id}), not the person's; quote what the person wrote`);
    }
  }
  return best?.result ?? refuse('NOT_FOUND', 'the person did not write this in this conversation (paraphrases are refused)');
}

/** The refusals a message of the person's can give, strongest first (the assistant's words are weighed apart). */
const Rank = { Fragment: 0, NotConsecutive: 1, AssistantWords: 2, WordsLeftOut: 3, OtherCase: 4 } as const;
type Rank = (typeof Rank)[keyof typeof Rank];
interface Refused { rank: Rank; result: QuoteCheckResult }
interface QuoteForms { quote: string; needles: string[]; pieces: string[]; qTokens: string[] }

/** The strongest refusal this message gives among those `weighs` lets through (stronger than any found before), or null. */
function refusalIn(prep: Prepared, f: QuoteForms, weighs: (rank: Rank) => boolean): Refused | null {
  if (weighs(Rank.Fragment)) {
    for (const needle of f.needles) {
      const s = occurrences(prep.norm.text, needle, 1)[0];
      if (s === undefined) continue;
      const around = sentencesAround(prep, s, s + needle.length);
      return { rank: Rank.Fragment, result: holdsMark(around) ? forgottenRefusal() : refuse('FRAGMENT', `the quote is part of a sentence: "${around}"`) };
    }
  }
  if (weighs(Rank.NotConsecutive) && notConsecutive(prep, f.pieces)) {
    return {
      rank: Rank.NotConsecutive,
      result: holdsMark(f.quote) ? forgottenRefusal() : refuse('FRAGMENT', 'the quoted sentences are not consecutive in the message; quote them one at a time'),
    };
  }
  if (weighs(Rank.WordsLeftOut)) {
    const sentence = droppedWords(prep, f.qTokens);
    if (sentence) return { rank: Rank.WordsLeftOut, result: holdsMark(sentence) ? forgottenRefusal() : refuse('FRAGMENT', `words are left out of the sentence: "${sentence}"`) };
  }
  if (weighs(Rank.OtherCase)) {
    const sentence = sameWordsOtherwise(prep, f.qTokens);
    if (sentence) {
      return {
        rank: Rank.OtherCase,
        result: holdsMark(sentence) ? forgottenRefusal()
          : refuse('NOT_FOUND', `not word for word; the person wrote: "${sentence}" (same letter case and punctuation needed)`),
      };
    }
  }
  return null;
}

/**
 * How a kept quote is read back: `On 2026-09-21 you wrote: "I grew up in Duluth."`
 * The date is the UTC calendar day of `at`.
 */
export function attribution(at: Date, quote: string): string {
  return `On ${at.toISOString().slice(0, 10)} you wrote: "${quote}"`;
}
