import { describe, expect, it } from 'vitest';
import { relate, type StatementLike } from '../../src/core/conflicts.js';

const s = (text: string): StatementLike => ({ text, type: 'FACT', entities: [], themes: ['t'], previousSentence: null });

describe('what a statement set aside, said again', () => {
  it('corrects the statement that set it aside: the person changed back', () => {
    for (const [old, now] of [
      ['No, my favourite colour is green, not blue.', 'My favourite colour is blue.'],
      ['Correction: I work at Apple, not Google.', 'I work at Google.'],
      ['I drink tea, not coffee.', 'I drink coffee.'],
      ['I take the train instead of the bus.', 'I take the bus.'],
      ['I prefer cats rather than dogs.', 'I prefer dogs.'],
    ]) {
      expect(relate(s(old!), s(now!), true), `${old} / ${now}`).toMatchObject({ kind: 'corrects', rule: 'set-aside' });
    }
  });

  it('leaves alone the kept value said again, the same contrast said again, a denial of it and another frame', () => {
    for (const [old, now] of [
      ['My favourite colour is green, not blue.', 'My favourite colour is green.'],
      ['Call me Sam, not Samuel.', 'Call me Sam, not Samuel!'],
      ['I drink tea, not coffee.', "I don't drink coffee."],
      ['I am going to Paris, not Rome.', 'Rome is beautiful.'],
      ['I drink tea, not coffee.', 'I drink coffee and tea.'],
    ]) {
      expect((relate(s(old!), s(now!), true) as { rule?: string }).rule, `${old} / ${now}`).not.toBe('set-aside');
    }
  });
});

describe("the age of someone of the person's, given as a bare number", () => {
  it('is one value at a time: another number corrects it; another person is another age', () => {
    expect(relate(s('My son is 7.'), s('My son is 8.'), true)).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(relate(s("My daughter's six."), s('My daughter is seven.'), true)).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(relate(s('My daughter is six.'), s('My daughter is 6 years old.'), true).kind).toBe('compatible');
    expect(relate(s('My son is 7.'), s('My daughter is 8.'), true)).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
  });
});
