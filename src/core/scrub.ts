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
