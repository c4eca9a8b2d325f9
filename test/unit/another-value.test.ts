/**
 * The forty-third round's rules: one thing given another value, mistakes owned in chat's words, a day set
 * aside without a comma, "twice daily", an earlier telling said of itself, one value said of things on one
 * side only, a place that is nobody. Each with the cases it must leave alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { extractValues, relate } from '../../src/core/conflicts.js';
import { findCues } from '../../src/core/correction-cues.js';
import { anotherValueOfOneThing } from '../../src/core/another-value.js';
import { sameValueSameThings, toldBefore } from '../../src/core/meeting.js';
import { ownAndUnsaid } from '../../src/core/names-said.js';
import { useWordNet } from '../helpers/lexicon.js';
import { statement as s } from '../helpers/statements.js';

const rel = (a: string, b: string) => relate(s(a), s(b), true);
const kinds = (text: string) => extractValues(text).map((v) => `${v.kind}:${v.norm}`);

beforeAll(async () => {
  await useWordNet();
});

describe('one thing given another value', () => {
  it('corrects: the same things, another number, year or contact, however the sentence is built', () => {
    expect(rel('My bike lock code has 3 digits.', 'bike lock code: 4 digits')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('My driving licence expires in 2031.', 'driving licence expiry is 2033')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('I wear a size 9 glove.', 'glove size 8')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('My locker at the gym is number 12.', 'gym locker number is 21')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
  });

  it('leaves alone another holder, another qualifier, another unit, a position, a past event and an added one', () => {
    expect(anotherValueOfOneThing('Our garden has two apple trees.', "My parents' garden has three apple trees.")).toBe(false);
    expect(anotherValueOfOneThing('My work phone ends in 1234.', 'My home phone ends in 5678.')).toBe(false);
    expect(anotherValueOfOneThing('Find me recipes under 400 calories.', 'Find me recipes under 30 minutes.')).toBe(false);
    expect(anotherValueOfOneThing('My train to Leeds is on the 3rd.', 'My return train from Leeds is on the 9th.')).toBe(false);
    expect(anotherValueOfOneThing('I climbed Ben Nevis in 2015.', 'I climbed Ben Nevis in 2019.')).toBe(false);
    expect(rel('I have two bikes.', 'I have a third bike too.').kind).not.toBe('corrects');
    // (the same value is no new one)
    expect(anotherValueOfOneThing('I wear a size 9 glove.', 'glove size nine')).toBe(false);
  });
});

describe('a mistake owned in chat', () => {
  it('is a cue with or without "I", at a clause\'s start', () => {
    expect(findCues('oops, the train leaves 8:10, misread the board').map((c) => c.family)).toContain('wrong');
    expect(findCues("she's actually nine, i miscounted").map((c) => c.family)).toContain('wrong');
    expect(rel('The train to Porto leaves at 7:10.', 'porto train leaves 8:10, misread the board')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });

  it('is no cue where someone else misreads', () => {
    expect(findCues('people often misread my surname').map((c) => c.family)).not.toContain('wrong');
  });
});

describe('a day set aside without a comma', () => {
  it('gives the new day in place of the old one', () => {
    expect(findCues('yoga is thurs 6pm not weds')).toEqual(expect.arrayContaining([expect.objectContaining({ family: 'not-x', replaced: 'weds' })]));
    expect(rel('My yoga class is on Wednesday at 6 pm.', 'scratch that, yoga is thurs 6pm not weds')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });

  it('is no contrast after a word that is no value', () => {
    expect(findCues('I do not smoke').some((c) => c.family === 'not-x')).toBe(false);
  });
});

describe('how often, as chat writes it', () => {
  it('reads "twice daily" and "thrice weekly" as counts in a period', () => {
    expect(kinds('take it twice daily')).toEqual(['number:2/day']);
    expect(kinds('i swim thrice weekly')).toEqual(['number:3/week']);
    expect(kinds('we meet weekly')).toEqual(['number:1/week']);
    expect(rel('I swim three times a week.', 'i swim thrice weekly').kind).toBe('compatible');
  });
});

describe('an earlier telling said of itself', () => {
  it('is told before, and names no one the statement is about', () => {
    expect(toldBefore('I think I mentioned it before')).toBe(true);
    expect(toldBefore("I've told you this already")).toBe(true);
    expect(rel('My daughter Noor is allergic to kiwi.', 'noor, my girl, has a kiwi allergy, I think I mentioned it before').kind).toBe('compatible');
  });

  it('needs the time word: "I said it was fine" tells nothing of a telling', () => {
    expect(toldBefore('I said it was fine')).toBe(false);
    expect(toldBefore("I told you that I'm moving")).toBe(false);
  });
});

describe('one value said of things on one side only', () => {
  it('is not one fact said again when each side names someone the other does not', () => {
    expect(sameValueSameThings('i owe marek 30 pounds', 'Ines owes me 30 pounds.')).toBe(false);
    expect(sameValueSameThings('My yoga class costs 30 pounds.', 'yoga class: 30 pounds')).toBe(true);
    // (a side that names nothing but its value says it of whatever the other names)
    expect(sameValueSameThings('I earn £41,000 a year.', "My salary's 41k.")).toBe(true);
  });
});

describe('a place named', () => {
  it('is nobody else: a note of the same flight at the same day and time is the person\'s own', () => {
    expect(ownAndUnsaid('My flight to Quito leaves at 9:15 in the evening on the 2nd of May.', 'quito flight departs 21:15, 2 may')).toBe(true);
    expect(ownAndUnsaid("My sister's flight to Quito leaves at 9:15 pm on 2 May.", 'quito flight departs 21:15, 2 may')).toBe(false);
  });
});
