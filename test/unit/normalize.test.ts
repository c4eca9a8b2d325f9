/** src/core/normalize.ts: what the EXACT tier treats as the same text. */
import { describe, expect, it } from 'vitest';
import { normalizeText, showsNothing, trimInvisible } from '../../src/core/normalize.js';

describe('normalizeText', () => {
  it.each([
    ['I take the 7:15 train to work.', 'i take the 7:15  train to work'],
    ['My brother Owen lives in Bristol.', 'MY BROTHER OWEN LIVES IN BRISTOL'],
    ["I don't eat meat.", 'I don\u2019t eat meat.'],
    ['I don`t eat meat.', "I don't eat meat"],
    ['She said "hello" to me.', 'She said \u201Chello\u201D to me.'],
    ['I like tea!', 'I like tea?!'],
    ['I like tea...', 'I like tea\u2026'],
    ['  I like\ttea \n', 'I like tea'],
    ['"I like tea."', 'I like tea'],
    ['Milk, eggs , bread', 'milk, eggs, bread'],
    ['\uFF29 like tea', 'I like tea'],
    // a format character inside a word is not seen (one fact, not two: found by a probe)
    ['My nephew is called Jo\u200Bhn.', 'My nephew is called John.'],
    ['I live in Z\u00fcrich.', 'I live in Zu\u0308rich.'],
  ])('%j = %j', (a, b) => {
    expect(normalizeText(a)).toBe(normalizeText(b));
  });

  it.each([
    ['I like tea.', "I don't like tea."],
    ['I take the 7:15 train.', 'I take the 7:50 train.'],
    ['My PIN is 1234.', 'My PIN is 12.34.'],
    ['I live in Bristol.', 'I lived in Bristol.'],
  ])('keeps %j and %j apart', (a, b) => {
    expect(normalizeText(a)).not.toBe(normalizeText(b));
  });

  it('keeps inner punctuation that carries meaning', () => {
    expect(normalizeText('I take the 7:15 train to work.')).toBe('i take the 7:15 train to work');
    expect(normalizeText('It costs 3.50 euros.')).toBe('it costs 3.50 euros');
  });

  it('is idempotent', () => {
    for (const s of ['  "Hello,  World!" ', 'I don\u2019t know\u2026', 'A ; b :']) {
      expect(normalizeText(normalizeText(s))).toBe(normalizeText(s));
    }
  });
});

describe('what shows nothing', () => {
  it('is whitespace, format characters, letters and marks that show nothing', () => {
    for (const t of ['', ' \t', '\u200b\u2060', '\u3164', '\u2800', '\u0301\u0301', '\ufe0f', '\u115f\u1160\uffa0']) expect(showsNothing(t), JSON.stringify(t)).toBe(true);
    for (const t of ['a', '\u3164a', 'e\u0301', '\u{1F600}', '\u{1F469}\u200d\u{1F4BB}', '.', '\u00a0x']) expect(showsNothing(t), JSON.stringify(t)).toBe(false);
  });

  it('is trimmed from the ends of a name; a joiner inside an emoji stays', () => {
    expect(trimInvisible('\u3164Lyon\u2800 ')).toBe('Lyon');
    expect(trimInvisible('\u200bAna\u200b')).toBe('Ana');
    expect(normalizeText('\u{1F469}\u200d\u{1F4BB}')).toBe('\u{1F469}\u200d\u{1F4BB}');
  });
});
