/**
 * What a memory keeps of the message its quote came from (`Memory.context`, and its lexicon
 * entry): docs/quote-check.md, "The context kept".
 */

/** Characters of the message kept on either side of the quote. */
export const CONTEXT_MARGIN = 1_000;

/**
 * The message around the quote: the whole message when it says at most `margin` characters on
 * either side of it, else the quote with up to `margin` characters on each side, cut at a space
 * (never inside a word). A message of 100,000 characters was every one of its memories' context
 * and lexicon entry, each written whole: the 300th memory of one such message took 0.45 s to
 * remember, and a forget or a rebuild rewrote them all (found by an adversarial probe). The whole
 * message stays in its conversation. A quote not found as such (the caller's spacing) is placed at
 * the message's start.
 */
export function contextAround(message: string, quote: string, margin = CONTEXT_MARGIN): string {
  if (message.length <= quote.length + 2 * margin) return message;
  const at = Math.max(0, message.indexOf(quote));
  let start = Math.max(0, at - margin);
  let end = Math.min(message.length, at + quote.length + margin);
  if (start > 0) {
    const space = message.slice(start, at).search(/\s/);
    start = space < 0 ? at : start + space;
  }
  if (end < message.length) {
    const tail = message.slice(at + quote.length, end);
    const space = Math.max(tail.lastIndexOf(' '), tail.lastIndexOf('\n'), tail.lastIndexOf('\t'));
    end = space < 0 ? at + quote.length : at + quote.length + space;
  }
  return message.slice(start, end).trim();
}

/** The end of the message before the source message (often the question the quote answers), at most 2 × `margin` characters, cut at a space. */
export function precedingTail(preceding: string, margin = CONTEXT_MARGIN): string {
  if (preceding.length <= 2 * margin) return preceding;
  const tail = preceding.slice(preceding.length - 2 * margin);
  const space = tail.search(/\s/);
  return (space < 0 ? tail : tail.slice(space)).trim();
}
