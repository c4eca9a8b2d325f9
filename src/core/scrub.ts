import { normalizeForQuote, normalizeMapped, splitSentences, splitSentencesDetailed } from './sentences.js';

/**
 * The source-message context a surviving memory keeps once other memories said in
 * the same message are forgotten for good: the message without the sentences of
 * the forgotten wordings. Null when nothing is left beyond the memory's own quote
 * (the context is only kept when the message said more than the quote).
 */
export function scrubContext(context: string, ownQuote: string, forgotten: readonly string[]): string | null {
  const held = heldSentences(context, forgotten);
  const kept = splitSentencesDetailed(context).filter((_, i) => !held[i]);
  const text = kept.map((s) => s.text).join(' ').trim();
  if (!text || normalizeForQuote(text) === normalizeForQuote(ownQuote)) return null;
  return text;
}

/** A wording as a copy may end: without its final punctuation (the quote check accepts it so). */
const withoutEndPunctuation = (q: string): string => q.replace(/\s*[.!?…]+$/u, '');

const isWordChar = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{N}]/u.test(c);

/**
 * Which sentences of `text` hold a forgotten wording (docs/erasure.md, "Every copy"): each sentence
 * an occurrence of a wording touches, compared as the quote check compares (spacing and quote
 * styles aside, never cutting a word), and each unterminated sentence that ends with the wording
 * typed without its final punctuation (the quote check accepts the wording there).
 */
export function heldSentences(text: string, wordings: readonly string[]): boolean[] {
  const spans = splitSentencesDetailed(text);
  const held = spans.map(() => false);
  const norm = normalizeMapped(text);
  const hay = norm.text;
  const open = spans.filter((x) => !x.terminated);
  // Original offsets of the normalised range [s, e). The spans are in order and do not overlap: the
  // first one it reaches is found by bisection, so a message of thousands of sentences holding a
  // wording thousands of times costs occurrences x log(sentences), not their product.
  const touch = (s: number, e: number, atUnterminatedEnd: boolean): void => {
    const from = norm.map[s]!;
    const to = norm.map[e - 1]! + 1;
    if (atUnterminatedEnd && !open.some((x) => x.end >= to && text.slice(to, x.end).trim() === '')) return;
    let lo = 0;
    let hi = spans.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (spans[mid]!.end > from) hi = mid; else lo = mid + 1;
    }
    for (let i = lo; i < spans.length && spans[i]!.start < to; i++) held[i] = true;
  };
  for (const w of wordings) {
    const q = normalizeForQuote(w);
    if (!q) continue;
    const stripped = withoutEndPunctuation(q);
    const needles: [string, boolean][] = [[q, false]];
    if (stripped !== q && stripped) needles.push([stripped, true]);
    for (const [needle, atEnd] of needles) {
      for (let s = hay.indexOf(needle); s >= 0; s = hay.indexOf(needle, s + 1)) {
        const e = s + needle.length;
        if ((isWordChar(needle[0]) && isWordChar(hay[s - 1])) || (isWordChar(needle[needle.length - 1]) && isWordChar(hay[e]))) continue;
        touch(s, e, atEnd);
      }
    }
  }
  return held;
}

/**
 * Runs of characters every message holding `wording` holds, read as the quote check reads it
 * (composed, past invisible format characters): its pieces between the characters the quote check
 * normalises (whitespace, quote marks), end punctuation aside. The store looks for messages
 * holding all of them (substring tests of each message so read), then `heldSentences` decides.
 */
export function literalPieces(wording: string): string[] {
  const q = withoutEndPunctuation(normalizeForQuote(wording));
  return [...new Set(q.split(/[\s'"]+/u).filter(Boolean))];
}

/** What takes a forgotten sentence's place in its message (docs/erasure.md). */
export const REDACTION_MARK = '[forgotten]';

/**
 * A message without the redaction marks a forget left in it (each stands on a line of its own):
 * what a memory keeps as its context and what the lexicon reads, never the mark as something said.
 * Null when nothing else is left.
 */
export function withoutMarks(text: string): string | null {
  if (!text.includes(REDACTION_MARK)) return text;
  const kept = text.split('\n').filter((line) => line.trim() !== REDACTION_MARK).join('\n').trim();
  return kept === '' ? null : kept;
}

/**
 * A message once some of its sentences are forgotten for good: each sentence holding a
 * forgotten wording (`heldSentences`) becomes the redaction mark, every other sentence stays as typed
 * (still quotable). Null when nothing but forgotten sentences was said.
 */
export function redactSentences(text: string, forgotten: readonly string[]): string | null {
  const held = heldSentences(text, forgotten);
  // The mark stands on a line of its own: a line break ends a sentence, so the sentences
  // around it stay whole (quotable), whatever punctuation they have.
  const own = (gap: string) => (/[\r\n]/.test(gap) ? gap : '\n');
  let out = '';
  let last = 0;
  let kept = false;
  let prevDropped = false;
  const spans = splitSentences(text);
  for (const [i, s] of spans.entries()) {
    const n = normalizeForQuote(s.text);
    const drop = n !== '' && held[i]!;
    const gap = text.slice(last, s.start);
    out += (drop || prevDropped) && out !== '' ? own(gap) : gap;
    out += drop ? REDACTION_MARK : s.text;
    last = s.end;
    prevDropped = drop;
    if (!drop && n !== '') kept = true;
  }
  out += text.slice(last);
  return kept ? out : null;
}
