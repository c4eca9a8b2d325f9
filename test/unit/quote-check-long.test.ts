/**
 * The quote check on long conversations (src/core/quote-check.ts, src/memory/conversations.ts):
 * messages that do not hold the quote's longest word are not read whole, and that changes no
 * answer; the check lets the event loop run between messages, so one request against a
 * conversation of many long messages does not hold up every other request of the process.
 */
import { describe, expect, it } from 'vitest';
import { checkQuote as checkNow, type TranscriptMessage } from '../../src/core/quote-check.js';
import { checkQuoteInTurns } from '../../src/memory/conversations.js';

const at = (minute: number): Date => new Date(Date.UTC(2026, 8, 21, 10, minute));
const user = (text: string, minute: number): TranscriptMessage => ({ id: `u${minute}`, role: 'USER', text, at: at(minute) });
/** A message of ~100,000 characters (the most one may hold). */
const long = (i: number, words = 'The weather was fine and we walked to the harbour') => `${words} ${i}. `.repeat(Math.floor(100_000 / (words.length + 8)));

describe('the quote check on a long conversation', () => {
  it('finds a quote said long ago behind long messages without its words, and each refusal as before', () => {
    const said = user('Hi. I keep a pet axolotl named Brimbleton. Bye.', 0);
    const t = [said, ...Array.from({ length: 30 }, (_, i) => user(long(i), i + 1))];
    const r = checkNow('I keep a pet axolotl named Brimbleton.', t);
    expect(r.ok && r.messageId).toBe(said.id);
    // the same words in another letter case, a fragment, words left out: found and explained as before
    const other = (q: string) => { const x = checkNow(q, t); return x.ok ? 'OK' : `${x.reason}: ${x.detail}`; };
    expect(other('I KEEP A PET AXOLOTL NAMED BRIMBLETON.')).toMatch(/^NOT_FOUND: not word for word; the person wrote: "I keep a pet axolotl named Brimbleton\."/);
    expect(other('a pet axolotl named Brimbleton')).toMatch(/^FRAGMENT: the quote is part of a sentence/);
    expect(other('I keep a pet named Brimbleton.')).toMatch(/^FRAGMENT: words are left out of the sentence/);
    expect(other('I keep a pet turtle named Brimbleton.')).toMatch(/^NOT_FOUND: the person did not write this/);
  });

  it('a word whose last letter is a sigma is found whatever follows it in the message', () => {
    // "Σ" lower-cases to "ς" at a word's end and to "σ" before a letter: the word alone and the word in
    // the message lower-case differently. (Past a soft hyphen, which the check now reads past, as it
    // does every invisible format character: "ΟΔΟΣ\u00ADΑ" is the one word "ΟΔΟΣΑ".)
    const t = [user('ΟΔΟΣ\u00ADΑ ΕΔΩ.', 0)];
    expect(checkNow('ΟΔΟΣ\u00ADΑ ΕΔΩ.', t).ok).toBe(true);
    expect(checkNow('ΟΔΟΣΑ ΕΔΩ.', t).ok).toBe(true);
    expect(checkNow('οδοσ\u00ADα εδω.', t)).toMatchObject({ ok: false, reason: 'NOT_FOUND', detail: expect.stringMatching(/not word for word/) });
    const end = [user('ΕΙΜΑΙ ΣΤΟ ΟΔΟΣ. ΕΔΩ.', 1)];
    expect(checkNow('ΕΙΜΑΙ ΣΤΟ ΟΔΟΣ.', end).ok).toBe(true);
    expect(checkNow('ειμαι στο οδος.', end)).toMatchObject({ ok: false, reason: 'NOT_FOUND', detail: expect.stringMatching(/not word for word/) });
  });

  it('lets the event loop run while it reads a long conversation', { timeout: 120_000 }, async () => {
    // every message holds the quote's words, so each is read whole (~0.1 s each here, far past a slice of 10 ms)
    const t = Array.from({ length: 8 }, (_, i) => user(long(i), i));
    let ranMeanwhile = false;
    setImmediate(() => { ranMeanwhile = true; });
    const r = await checkQuoteInTurns('The weather was fine and we walked to the beach.', t);
    expect(r.ok).toBe(false);
    expect(ranMeanwhile).toBe(true);
    // and it answers as the check run at once does
    expect(r).toEqual(checkNow('The weather was fine and we walked to the beach.', t));
  });
});
