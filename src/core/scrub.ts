import { normalizeForQuote, splitSentences } from './sentences.js';

/**
 * The source-message context a surviving memory keeps once other memories said in
 * the same message are forgotten for good: the message without the sentences of
 * the forgotten wordings. Null when nothing is left beyond the memory's own quote
 * (the context is only kept when the message said more than the quote).
 */
export function scrubContext(context: string, ownQuote: string, forgotten: readonly string[]): string | null {
  const gone = forgotten.map(normalizeForQuote).filter(Boolean);
  const kept = splitSentences(context).filter((s) => {
    const n = normalizeForQuote(s.text);
    return !gone.some((g) => g.includes(n));
  });
  const text = kept.map((s) => s.text).join(' ').trim();
  if (!text || normalizeForQuote(text) === normalizeForQuote(ownQuote)) return null;
  return text;
}

/** What takes a forgotten sentence's place in its message (docs/erasure.md). */
export const REDACTION_MARK = '[forgotten]';

/**
 * A message once some of its sentences are forgotten for good: each sentence of a
 * forgotten wording becomes the redaction mark, every other sentence stays as typed
 * (still quotable). Null when nothing but forgotten sentences was said.
 */
export function redactSentences(text: string, forgotten: readonly string[]): string | null {
  const gone = forgotten.map(normalizeForQuote).filter(Boolean);
  // The mark stands on a line of its own: a line break ends a sentence, so the sentences
  // around it stay whole (quotable), whatever punctuation they have.
  const own = (gap: string) => (/[\r\n]/.test(gap) ? gap : '\n');
  let out = '';
  let last = 0;
  let kept = false;
  let prevDropped = false;
  const spans = splitSentences(text);
  for (const s of spans) {
    const n = normalizeForQuote(s.text);
    const drop = n !== '' && gone.some((g) => g.includes(n));
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
