import { describe, expect, it } from 'vitest';
import { attribution, checkQuote, type QuoteCheckResult, type TranscriptMessage } from '../../src/core/quote-check.js';

let seq = 0;
const at = (minute: number): Date => new Date(Date.UTC(2026, 8, 21, 10, minute));
const user = (text: string, minute = seq++, id = `u${minute}`): TranscriptMessage => ({ id, role: 'USER', text, at: at(minute) });
const assistant = (text: string, minute = seq++, id = `a${minute}`): TranscriptMessage => ({ id, role: 'ASSISTANT', text, at: at(minute) });

function accepted(r: QuoteCheckResult): Extract<QuoteCheckResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected acceptance, got ${r.reason}: ${r.detail}`);
  return r;
}
const reasonOf = (r: QuoteCheckResult): string => (r.ok ? 'OK' : r.reason);

describe('checkQuote: accepted', () => {
  it('accepts one whole sentence and returns its details', () => {
    const msg = user('Hi there! I grew up in Duluth. Now I live in Lisbon.', 3, 'm1');
    const r = accepted(checkQuote('I grew up in Duluth.', [msg]));
    expect(r).toEqual({
      ok: true,
      messageId: 'm1',
      at: at(3),
      quote: 'I grew up in Duluth.',
      sentenceIndex: 1,
      sentenceCount: 1,
      previousSentence: 'Hi there!',
      message: 'Hi there! I grew up in Duluth. Now I live in Lisbon.',
    });
  });

  it('accepts a whole message of one sentence, previousSentence null', () => {
    const r = accepted(checkQuote('My favorite number is not 1729.', [user('My favorite number is not 1729.')]));
    expect(r.sentenceIndex).toBe(0);
    expect(r.previousSentence).toBeNull();
  });

  it('accepts several consecutive sentences of the same message', () => {
    const t = [user('I grew up in Duluth. I moved to Lisbon in 2019. I love it.')];
    const r = accepted(checkQuote('I grew up in Duluth. I moved to Lisbon in 2019.', t));
    expect(r.sentenceIndex).toBe(0);
    expect(r.sentenceCount).toBe(2);
    expect(r.quote).toBe('I grew up in Duluth. I moved to Lisbon in 2019.');
    const r2 = accepted(checkQuote('I moved to Lisbon in 2019. I love it.', t));
    expect([r2.sentenceIndex, r2.sentenceCount]).toEqual([1, 2]);
  });

  it('accepts "A. B." style pairs of short sentences', () => {
    const r = accepted(checkQuote('Yes. No.', [user('Maybe. Yes. No. Fine.')]));
    expect([r.sentenceIndex, r.sentenceCount]).toEqual([1, 2]);
  });

  it('accepts curly vs straight apostrophes and quotes, both ways', () => {
    expect(accepted(checkQuote("I'm allergic to peanuts.", [user('I’m allergic to peanuts.')])).quote).toBe('I’m allergic to peanuts.');
    expect(accepted(checkQuote('I’m allergic to peanuts.', [user("I'm allergic to peanuts.")])).quote).toBe("I'm allergic to peanuts.");
    expect(accepted(checkQuote('She said "go".', [user('She said “go”.')])).ok).toBe(true);
  });

  it('reads letters composed or not (NFC / NFD) as the same, and returns them as typed', () => {
    // macOS types "Zu\u0308rich" (u and a combining diaeresis); most models write "Z\u00fcrich"
    const typed = 'I moved to Zu\u0308rich in 2019. The cafe\u0301 is near.';
    const r = accepted(checkQuote('I moved to Z\u00fcrich in 2019.', [user(`Hi. ${typed}`)]));
    expect(r.quote).toBe('I moved to Zu\u0308rich in 2019.');
    expect(r.previousSentence).toBe('Hi.');
    expect(accepted(checkQuote('The caf\u00e9 is near.', [user(typed)])).quote).toBe('The cafe\u0301 is near.');
    expect(accepted(checkQuote('The cafe\u0301 is near.', [user('The caf\u00e9 is near.')])).quote).toBe('The caf\u00e9 is near.');
    // a letter is still a letter: "Zurich" is not "Z\u00fcrich"
    expect(reasonOf(checkQuote('I moved to Zurich in 2019.', [user(typed)]))).toBe('NOT_FOUND');
  });

  it('reads past invisible format characters inside words, and returns them as typed', () => {
    const r = accepted(checkQuote('My nephew is called John.', [user('Hello. My nephew is called Jo\u200bhn.')]));
    expect(r.quote).toBe('My nephew is called Jo\u200bhn.');
    expect(accepted(checkQuote('My nephew is called Jo\u00adhn.', [user('My nephew is called John.')])).quote).toBe('My nephew is called John.');
    // a joiner that joins stays: an emoji sequence is not its parts
    expect(reasonOf(checkQuote('I am a \u{1F469}\u{1F4BB}.', [user('I am a \u{1F469}\u200d\u{1F4BB}.')]))).not.toBe('OK');
  });

  it('a zero-width space between two sentences parts them: each is a whole sentence, neither a fragment', () => {
    const t = [user('I like dogs.\u200bI hate cats.', 40, 'zw')];
    const r = accepted(checkQuote('I hate cats.', t));
    expect(r.sentenceIndex).toBe(1);
    expect(r.previousSentence).toBe('I like dogs.');
    expect(accepted(checkQuote('I like dogs.', t)).sentenceIndex).toBe(0);
  });

  it('accepts extra, missing or different spacing, and returns the original text', () => {
    const t = [user('I grew up in  Duluth.\nIt was   cold.')];
    const r = accepted(checkQuote('  I grew   up in Duluth. It was cold.  ', t));
    expect(r.quote).toBe('I grew up in  Duluth.\nIt was   cold.');
    expect(r.sentenceCount).toBe(2);
  });

  it('accepts a last sentence without end punctuation, quoted with or without it', () => {
    const t = [user('I moved last year. I grew up in Duluth')];
    expect(accepted(checkQuote('I grew up in Duluth', t)).quote).toBe('I grew up in Duluth');
    expect(accepted(checkQuote('I grew up in Duluth.', t)).quote).toBe('I grew up in Duluth');
  });

  it('tolerates added end punctuation at a line break without punctuation', () => {
    const t = [user('I grew up in Duluth\nIt was cold')];
    expect(accepted(checkQuote('I grew up in Duluth.', t)).sentenceIndex).toBe(0);
  });

  it('accepts a list item with or without its marker', () => {
    const t = [user('To do:\n1. Buy milk\n2. Call Mom')];
    expect(accepted(checkQuote('Buy milk', t)).quote).toBe('Buy milk');
    expect(accepted(checkQuote('1. Buy milk', t)).quote).toBe('Buy milk');
  });

  it('gives the previous sentence of a correction', () => {
    const t = [user('My anniversary is June 3. Actually, scratch that, it is June 13.')];
    const r = accepted(checkQuote('Actually, scratch that, it is June 13.', t));
    expect(r.previousSentence).toBe('My anniversary is June 3.');
    expect(r.sentenceIndex).toBe(1);
  });

  it('accepts a sentence with an emoji only when the emoji is quoted too', () => {
    const t = [user('We won! 🎉 Party tonight.')];
    expect(accepted(checkQuote('We won! 🎉', t)).ok).toBe(true);
    expect(reasonOf(checkQuote('We won!', t))).toBe('FRAGMENT');
  });
});

describe('checkQuote: which message', () => {
  it('prefers the latest user message', () => {
    const t = [user('I love tea.', 1, 'old'), user('I love tea.', 5, 'new'), user('Something else.', 9, 'other')];
    expect(accepted(checkQuote('I love tea.', t)).messageId).toBe('new');
  });

  it('uses `at`, not array order, then the last in the array on a tie', () => {
    const t = [user('I love tea.', 5, 'late'), user('I love tea.', 1, 'early')];
    expect(accepted(checkQuote('I love tea.', t)).messageId).toBe('late');
    const tie = [user('I love tea.', 5, 'first'), user('I love tea.', 5, 'second')];
    expect(accepted(checkQuote('I love tea.', tie)).messageId).toBe('second');
  });

  it('accepts from the user message when the assistant said the same', () => {
    const t = [user('I grew up in Duluth.', 1, 'u'), assistant('I grew up in Duluth.', 2, 'a')];
    expect(accepted(checkQuote('I grew up in Duluth.', t)).messageId).toBe('u');
  });

  it('never spans two messages', () => {
    const t = [user('I grew up in Duluth.', 1), user('It was cold.', 2)];
    expect(reasonOf(checkQuote('I grew up in Duluth. It was cold.', t))).not.toBe('OK');
  });
});

describe('checkQuote: EMPTY', () => {
  it.each(['', '   ', '\n\t '])('refuses %j', (q) => {
    const r = checkQuote(q, [user('Hello.')]);
    expect(reasonOf(r)).toBe('EMPTY');
  });
});

describe('checkQuote: FRAGMENT', () => {
  it('"1729" out of "My favorite number is not 1729."', () => {
    const r = checkQuote('1729', [user('My favorite number is not 1729.')]);
    expect(r).toEqual({ ok: false, reason: 'FRAGMENT', detail: 'the quote is part of a sentence: "My favorite number is not 1729."' });
  });

  it('"the launch is on Friday" out of a longer sentence', () => {
    const t = [user("My colleague Dana says the launch is on Friday, but I think she's wrong.")];
    const r = checkQuote('the launch is on Friday', t);
    expect(reasonOf(r)).toBe('FRAGMENT');
    expect(r.ok ? '' : r.detail).toContain("My colleague Dana says the launch is on Friday, but I think she's wrong.");
    expect(reasonOf(checkQuote('the launch is on Friday.', t))).toBe('FRAGMENT');
  });

  it('a sentence cut short with a period added is a fragment', () => {
    const t = [user("My colleague Dana says the launch is on Friday, but I think she's wrong.")];
    expect(reasonOf(checkQuote('My colleague Dana says the launch is on Friday.', t))).toBe('FRAGMENT');
  });

  it('"My favorite number is 1729." (a word dropped) is never accepted', () => {
    const r = checkQuote('My favorite number is 1729.', [user('My favorite number is not 1729.')]);
    expect(reasonOf(r)).toBe('FRAGMENT');
    expect(r.ok ? '' : r.detail).toBe('words are left out of the sentence: "My favorite number is not 1729."');
  });

  it('words dropped in the middle', () => {
    const r = checkQuote('I moved to Lisbon in 2019.', [user('I moved with my family to Lisbon in 2019.')]);
    expect(reasonOf(r)).toBe('FRAGMENT');
  });

  it('dropping the end punctuation the person typed is a fragment', () => {
    expect(reasonOf(checkQuote('My favorite number is not 1729', [user('My favorite number is not 1729.')]))).toBe('FRAGMENT');
  });

  it('a sentence and a half', () => {
    const t = [user('My anniversary is June 3. Actually, scratch that, it is June 13.')];
    expect(reasonOf(checkQuote('My anniversary is June 3. Actually', t))).toBe('FRAGMENT');
  });

  it('non-consecutive sentences are refused', () => {
    const t = [user('I grew up in Duluth. I moved to Lisbon in 2019. I love it.')];
    const r = checkQuote('I grew up in Duluth. I love it.', t);
    expect(reasonOf(r)).toBe('FRAGMENT');
    expect(r.ok ? '' : r.detail).toMatch(/not consecutive/);
  });

  it('sentences out of order are refused', () => {
    const t = [user('I grew up in Duluth. I moved to Lisbon in 2019.')];
    expect(reasonOf(checkQuote('I moved to Lisbon in 2019. I grew up in Duluth.', t))).toBe('FRAGMENT');
  });

  it('a part of a list item is a fragment', () => {
    expect(reasonOf(checkQuote('milk', [user('1. Buy milk')]))).toBe('FRAGMENT');
  });
});

describe('checkQuote: NOT_FOUND', () => {
  it('a paraphrase: "I have a cat." for "I\'m thinking about getting a cat."', () => {
    const r = checkQuote('I have a cat.', [user("I'm thinking about getting a cat.")]);
    expect(reasonOf(r)).toBe('NOT_FOUND');
  });

  it('never typed at all', () => {
    expect(reasonOf(checkQuote('I grew up in Duluth.', [user('Hello!'), assistant('Hi, how can I help?')]))).toBe('NOT_FOUND');
  });

  it('an empty transcript (e.g. words from another conversation)', () => {
    expect(reasonOf(checkQuote('I grew up in Duluth.', []))).toBe('NOT_FOUND');
  });

  it('a different letter case is refused, with the person\'s wording in the detail', () => {
    const r = checkQuote('i grew up in duluth.', [user('I grew up in Duluth.')]);
    expect(reasonOf(r)).toBe('NOT_FOUND');
    expect(r.ok ? '' : r.detail).toContain('"I grew up in Duluth."');
  });

  it('a word is not found inside another word', () => {
    expect(reasonOf(checkQuote('cat', [user('My category is books.')]))).toBe('NOT_FOUND');
  });
});

describe('checkQuote: ASSISTANT_WORDS', () => {
  it('an assistant-only sentence', () => {
    const t = [user('Can you remember things?'), assistant('I will remember that you like tea.', undefined, 'a9')];
    const r = checkQuote('I will remember that you like tea.', t);
    expect(reasonOf(r)).toBe('ASSISTANT_WORDS');
    expect(r.ok ? '' : r.detail).toContain('a9');
  });

  it('part of an assistant message', () => {
    const t = [user('Hello.'), assistant('Sure. You like tea, and you grew up in Duluth. Anything else?')];
    expect(reasonOf(checkQuote('you grew up in Duluth', t))).toBe('ASSISTANT_WORDS');
  });

  it('words the person typed as part of a sentence stay a FRAGMENT even if the assistant repeated them', () => {
    const t = [user('My favorite number is not 1729.'), assistant('Noted: 1729.')];
    expect(reasonOf(checkQuote('1729', t))).toBe('FRAGMENT');
  });
});

describe('attribution', () => {
  it('formats the UTC date and the quote', () => {
    expect(attribution(new Date('2026-09-21T15:00:00Z'), 'I grew up in Duluth.')).toBe('On 2026-09-21 you wrote: "I grew up in Duluth."');
  });

  it('uses the UTC day, not the local one', () => {
    expect(attribution(new Date('2026-09-21T23:59:59-05:00'), 'Hi.')).toBe('On 2026-09-22 you wrote: "Hi."');
  });

  it('round-trips with an accepted quote', () => {
    const r = accepted(checkQuote('I grew up in Duluth.', [user('I grew up in Duluth.', 0)]));
    expect(attribution(r.at, r.quote)).toBe('On 2026-09-21 you wrote: "I grew up in Duluth."');
  });
});

describe('checkQuote: the redaction mark is never the person\'s words (FORGOTTEN)', () => {
  const redacted = user('[forgotten]\nI like coffee.\nI like tea.');
  it.each([
    ['[forgotten]'],
    ['[forgotten] I like coffee.'],
    ['[forgotten]\nI like coffee.'],
    ['forgotten'],
    ['[Forgotten]'],
    ['[forgotten]\nI like tea.'],
  ])('%j is refused as FORGOTTEN', (quote) => {
    const r = checkQuote(quote, [redacted]);
    expect(reasonOf(r)).toBe('FORGOTTEN');
    expect(r.ok ? '' : r.detail).toContain('not the person');
  });

  it('the sentences around the mark are still the person\'s', () => {
    expect(accepted(checkQuote('I like coffee.', [redacted])).quote).toBe('I like coffee.');
    expect(accepted(checkQuote('I like coffee. I like tea.', [redacted])).sentenceCount).toBe(2);
  });

  it('the text inside a sentence the person typed is theirs: only a mark standing as its own sentence is refused', () => {
    const r = accepted(checkQuote('I wrote [forgotten] on the box.', [user('I wrote [forgotten] on the box.')]));
    expect(r.quote).toBe('I wrote [forgotten] on the box.');
  });

  it('a mark in an assistant message is named for what it is', () => {
    expect(reasonOf(checkQuote('[forgotten]', [user('Hello.'), assistant('[forgotten]\nNoted.')]))).toBe('FORGOTTEN');
  });
});
