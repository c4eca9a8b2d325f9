import { beforeAll, describe, expect, it } from 'vitest';
import { relate } from '../../src/core/conflicts.js';
import { statement as s } from '../helpers/statements.js';
import { useWordNet } from '../helpers/lexicon.js';

// (as the service reads them: with WordNet's opposites and synonyms)
beforeAll(useWordNet, 120_000);

describe('what a statement set aside, said again', () => {
  it('corrects the statement that set it aside: the person changed back', () => {
    for (const [old, now] of [
      ['No, my favourite colour is green, not blue.', 'My favourite colour is blue.'],
      ['Correction: I work at Apple, not Google.', 'I work at Google.'],
      ['I drink tea, not coffee.', 'I drink coffee.'],
      ['I take the train instead of the bus.', 'I take the bus.'],
      ['I prefer cats rather than dogs.', 'I prefer dogs.'],
      // the two swapped, and both held now: the old statement's denial no longer holds
      ['I work at Apple, not Google.', 'I work at Google, not Apple.'],
      ['I prefer tea rather than coffee.', 'I prefer coffee rather than tea.'],
      ['My flight is on Friday, not Saturday.', 'My flight is on Saturday, not Friday.'],
      ['I drink tea, not coffee.', 'I drink coffee and tea.'],
    ]) {
      expect(relate(s(old!), s(now!), true), `${old} / ${now}`).toMatchObject({ kind: 'corrects', rule: 'set-aside' });
    }
  });

  it('leaves alone the kept value said again, the same contrast said again, a denial, another frame and another footing', () => {
    for (const [old, now] of [
      ['My favourite colour is green, not blue.', 'My favourite colour is green.'],
      ['Call me Sam, not Samuel.', 'Call me Sam, not Samuel!'],
      ['I drink tea, not coffee.', "I don't drink coffee."],
      ['I am going to Paris, not Rome.', 'Rome is beautiful.'],
      ['My favourite colour is green, not blue.', 'I like blue.'],
      ['I drive to work, not by bus.', 'I drive to work.'],
      // on another footing: a wish, a doubt, a condition, another time (a probe found these corrected)
      ['I live in York, not Leeds.', 'I could live in Leeds.'],
      ['I live in York, not Leeds.', 'I should live in Leeds.'],
      ['I live in York, not Leeds.', 'I might live in Leeds.'],
      ['I live in York, not Leeds.', 'If I live in Leeds.'],
      ["I live in York, not Leeds.", "I'll live in Leeds."],
      ["I live in York, not Leeds.", "I'm going to live in Leeds."],
      ['I live in York, not Leeds.', 'I lived in Leeds.'],
      ['I play guitar, not piano.', 'I can play piano.'],
      ['I want to visit Japan, not China.', 'I visited China.'],
    ]) {
      expect((relate(s(old!), s(now!), true) as { rule?: string }).rule, `${old} / ${now}`).not.toBe('set-aside');
    }
  });
});

describe('"not just X" and "not only X"', () => {
  it('say X, and more: no negation to flip', () => {
    expect((relate(s('I love dogs, not just cats.'), s('I love cats.'), true) as { rule?: string }).rule).not.toBe('polarity');
    expect(relate(s("I don't love cats."), s('I love cats.'), true)).toMatchObject({ kind: 'corrects', rule: 'polarity' });
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
