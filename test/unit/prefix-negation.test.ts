import { beforeAll, describe, expect, it } from 'vitest';
import { relate } from '../../src/core/conflicts.js';
import { prefixNegated } from '../../src/core/prefix-negation.js';
import { subjects } from '../../src/core/subjects.js';
import { useWordNet } from '../helpers/lexicon.js';
import { statement as s } from '../helpers/statements.js';

const rel = (a: string, b: string, topical = true) => relate(s(a), s(b), topical);

beforeAll(useWordNet, 120_000);

describe('a negation said by a prefix (polarity)', () => {
  it('reads "non-", "ex-" and WordNet\'s prefixed opposites as "not" the word the other side says, either way', () => {
    for (const [was, now] of [
      ['I am a smoker.', 'I am a non-smoker.'],
      ['I am a vegetarian.', 'I am an ex-vegetarian.'],
      ['John is my husband.', 'John is my ex-husband.'],
      ['I am a smoker.', 'I am a former smoker.'],
      ['I am employed.', 'I am unemployed.'],
      ['I am able to drive.', 'I am unable to drive.'],
      ['I am happy with my job.', 'I am unhappy with my job.'],
      ['I am a nonsmoker.', 'I am a smoker.'],
      ['It is legal to park here on Sundays.', 'It is illegal to park here on Sundays.'],
    ] as const) {
      expect(rel(was, now), `${was} / ${now}`).toMatchObject({ kind: 'corrects', rule: 'polarity' });
    }
  });
  it('agrees with a negation word saying the same, and reads nothing when no word is negated', () => {
    expect(rel('I am unemployed.', 'I am not employed.')).toEqual({ kind: 'compatible' });
    expect(rel('I am a non-smoker.', 'I am a non-smoker and I run.')).toEqual({ kind: 'compatible' });
    // "income" is no negation of "come", nor "ex-" one of a word the other side does not say
    expect(prefixNegated('I come home at six.', 'My income is low.')).toEqual(['I come home at six.', 'My income is low.']);
    // said of the subject only: a prefixed word elsewhere names another thing (a former boss, a kind of milk)
    expect(prefixNegated('I met my ex-boss.', 'I met my boss.')).toEqual(['I met my ex-boss.', 'I met my boss.']);
    expect(prefixNegated('I bought non-dairy milk.', 'I bought dairy milk.')).toEqual(['I bought non-dairy milk.', 'I bought dairy milk.']);
    expect(prefixNegated('My ex-husband lives in Leeds.', 'My husband lives in Leeds.')[0]).toBe('My ex-husband lives in Leeds.');
    expect(prefixNegated('I am a smoker.', 'I am a non-smoker.')).toEqual(['I am a smoker.', 'I am a not smoker.']);
  });
  it('leaves a statement that says the prefixed word itself as it is', () => {
    expect(prefixNegated('I am unemployed.', 'I am unemployed and employed by nobody.')[0]).toBe('I am unemployed.');
  });
});

describe("another person's words in quotation marks", () => {
  it('are about that person: they neither correct nor restate what the person says of themselves', () => {
    expect(subjects('He said "I hate cats."')).toEqual(new Set(['reported:he']));
    expect(subjects('"I hate cats," my sister said.')).toEqual(new Set(['reported:my sister']));
    expect(rel('I love cats.', 'He said "I hate cats."')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('I love cats.', 'Mum told me: "I hate cats."')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
  });
  it('but the person quoting themselves, or reported without quotation marks, is still the person', () => {
    expect(subjects('I said "I hate cats."')).toEqual(new Set(['i']));
    expect(rel('I love cats.', 'I said "I hate cats."')).toMatchObject({ kind: 'corrects', rule: 'polarity' });
    expect([...subjects('My doctor said I am allergic to penicillin.')]).not.toContainEqual(expect.stringMatching(/^reported:/));
  });
});

describe('polarity in a statement of several sentences', () => {
  it('needs one sentence that negates what the other says: a restated sentence beside a negated other one corrects nothing', () => {
    const r = rel('I am allergic to peanuts.', 'I am allergic to peanuts. I am not allergic to shellfish.');
    expect(r.kind).not.toBe('corrects');
    expect(rel('I am allergic to peanuts.', 'I was tested last week. I am not allergic to peanuts.')).toMatchObject({ kind: 'corrects', rule: 'polarity' });
    // never looser than the messages read whole: two short sentences of long messages are not the messages (LoCoMo)
    expect(rel("Thanks, Maria! I couldn't agree more. Life's too short, let's have some fun!", "Thanks, John! I totally agree, so I'm gonna keep it up.").kind).not.toBe('corrects');
    expect(rel("Yeah, Maria! I couldn't agree more. Thanks for being an awesome friend.", "I totally agree, Maria! Let's keep helping each other and make the world a better place.").kind).not.toBe('corrects');
  });
});
