/**
 * What a forget for good leaves of a message or a context (docs/erasure.md): the sentences
 * holding a forgotten wording, compared as the quote check compares, become the mark.
 */
import { describe, expect, it } from 'vitest';
import { heldSentences, literalPieces, redactSentences, scrubContext, withoutMarks } from '../../src/core/scrub.js';

describe('heldSentences / redactSentences', () => {
  const w = 'I have a tattoo of a quokka on my ankle.';

  it('redacts the wording where it was said, and every other copy of it', () => {
    expect(redactSentences(`${w} I like tea.`, [w])).toBe('[forgotten]\nI like tea.');
    expect(redactSentences(w, [w])).toBeNull();
    // inside a longer sentence (an assistant repeating it): the whole sentence goes
    expect(redactSentences(`You said: ${w} Noted.`, [w])).toBe('[forgotten]\nNoted.');
    // spacing and quote styles aside, as the quote check compares
    expect(redactSentences('Hi.  I’m from   Duluth.', ["I'm from Duluth."])).toBe('Hi.\n[forgotten]');
  });

  it('takes the wording typed without its final period only where the person typed none', () => {
    expect(redactSentences('Hello again.\nI have a tattoo of a quokka on my ankle', [w])).toBe('Hello again.\n[forgotten]');
    expect(heldSentences('I like tea with milk. Fine.', ['I like tea.'])).toEqual([false, false]);
  });

  it('never cuts a word, and leaves a paraphrase alone', () => {
    expect(heldSentences('I like teapots.', ['I like tea'])).toEqual([false]);
    expect(redactSentences('Noted: you have a tattoo of a quokka on your ankle.', [w])).toBe('Noted: you have a tattoo of a quokka on your ankle.');
  });

  it('a wording of several sentences takes all of them', () => {
    expect(redactSentences('A b c. I grew up in Duluth. I moved to Lisbon. Bye.', ['I grew up in Duluth. I moved to Lisbon.']))
      .toBe('A b c.\n[forgotten]\n[forgotten]\nBye.');
  });
});

describe('scrubContext', () => {
  it('drops the sentences holding a forgotten wording; null when only the own quote is left', () => {
    expect(scrubContext('I have a tattoo of a quokka on my ankle. I like tea.', 'I like tea.', ['I have a tattoo of a quokka on my ankle.'])).toBeNull();
    expect(scrubContext('Hi there. I like cats. I like dogs.', 'I like dogs.', ['I like cats.'])).toBe('Hi there. I like dogs.');
  });
});

describe('withoutMarks', () => {
  it('a message without its marks, null when nothing else is left', () => {
    expect(withoutMarks('[forgotten]\nI like coffee.')).toBe('I like coffee.');
    expect(withoutMarks('Hi.\n[forgotten]\n[forgotten]\nBye.')).toBe('Hi.\nBye.');
    expect(withoutMarks('[forgotten]')).toBeNull();
    expect(withoutMarks('I wrote [forgotten] on the box.')).toBe('I wrote [forgotten] on the box.');
  });
});

describe('literalPieces', () => {
  it('the runs between spaces and quote marks, end punctuation aside', () => {
    expect(literalPieces('I’m allergic to "peanuts".')).toEqual(['I', 'm', 'allergic', 'to', 'peanuts']);
    expect(literalPieces('My code is  wombatfizz!')).toEqual(['My', 'code', 'is', 'wombatfizz']);
    expect(literalPieces('  ')).toEqual([]);
  });
});
