/**
 * What a memory keeps of its message (src/core/context-window.ts): the whole of a short one; of a
 * long one, the quote with up to CONTEXT_MARGIN characters on each side, cut at a space.
 */
import { describe, expect, it } from 'vitest';
import { CONTEXT_MARGIN, contextAround, precedingTail } from '../../src/core/context-window.js';
import { wordingParts } from '../../src/memory/lexicon-rebuild.js';

const words = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

describe('the context a memory keeps', () => {
  it('is the whole message when it says no more than the margin on either side', () => {
    const message = `${words(100, 'a')} I keep bees on the roof. ${words(100, 'b')}`;
    expect(message.length).toBeLessThan(2 * CONTEXT_MARGIN);
    expect(contextAround(message, 'I keep bees on the roof.')).toBe(message);
  });

  it('of a long message, is the quote with at most the margin on each side, in whole words', () => {
    const before = words(3_000, 'a');
    const after = words(3_000, 'b');
    const quote = 'I keep bees on the roof.';
    const message = `${before} ${quote} ${after}`;
    const kept = contextAround(message, quote);
    expect(kept).toContain(quote);
    expect(kept.length).toBeLessThanOrEqual(quote.length + 2 * CONTEXT_MARGIN);
    expect(kept.length).toBeGreaterThan(quote.length + 2 * CONTEXT_MARGIN - 20);
    expect(message).toContain(kept);
    // whole words at both ends: the first and last are words of the message
    const tokens = new Set(message.split(' '));
    const kw = kept.split(' ');
    expect(tokens.has(kw[0]!) && tokens.has(kw[kw.length - 1]!)).toBe(true);
    // at the message's start or end, the other side is as long as the margin allows
    expect(contextAround(`${quote} ${after}`, quote).startsWith(quote)).toBe(true);
    expect(contextAround(`${before} ${quote}`, quote).endsWith(quote)).toBe(true);
  });

  it('of a long quote, keeps the quote whole', () => {
    const quote = `I keep ${words(1_500, 'bee')}.`;
    const message = `${words(2_000, 'a')} ${quote} ${words(2_000, 'b')}`;
    const kept = contextAround(message, quote);
    expect(kept).toContain(quote);
    expect(kept.length).toBeLessThanOrEqual(quote.length + 2 * CONTEXT_MARGIN);
  });

  it("keeps the end of a long message before (the question it answers)", () => {
    const question = 'Where do you keep your bees?';
    const long = `${words(3_000, 'a')} ${question}`;
    const tail = precedingTail(long);
    expect(tail.endsWith(question)).toBe(true);
    expect(tail.length).toBeLessThanOrEqual(2 * CONTEXT_MARGIN);
    expect(precedingTail(question)).toBe(question);
  });

  it('is what the write path and the lexicon rebuild give a wording (wordingParts)', () => {
    const quote = 'I keep bees on the roof.';
    const message = `${words(3_000, 'a')} ${quote} ${words(3_000, 'b')}`;
    const [q, context, preceding] = wordingParts(quote, message, `${words(3_000, 'c')} Any pets?`);
    expect(q).toBe(quote);
    expect(context).toBe(contextAround(message, quote));
    expect(preceding!.endsWith('Any pets?')).toBe(true);
    expect(preceding!.length).toBeLessThanOrEqual(2 * CONTEXT_MARGIN);
    // a message that is the quote: no context
    expect(wordingParts(quote, ` ${quote} `, null)[1]).toBeNull();
  });
});
