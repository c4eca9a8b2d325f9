/**
 * The forty-third round's rules: one thing given another value, mistakes owned in chat's words, a day set
 * aside without a comma, "twice daily", an earlier telling said of itself, one value said of things on one
 * side only, a place that is nobody. Each with the cases it must leave alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { findCues } from '../../src/core/correction-cues.js';
import { anotherValueOfOneThing } from '../../src/core/another-value.js';
import { sameValueSameThings, toldBefore, withoutToldBefore } from '../../src/core/meeting.js';
import { ownAndUnsaid } from '../../src/core/names-said.js';
import { useWordNet } from '../helpers/lexicon.js';
import { relateAlone as rel, valueKinds as kinds } from '../helpers/statements.js';

beforeAll(async () => {
  await useWordNet();
});

describe('one thing given another value', () => {
  it('corrects: the same things, another number, year or contact, however the sentence is built', () => {
    expect(rel('My bike lock code has 3 digits.', 'bike lock code: 4 digits')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('I wear a size 9 glove.', 'glove size 8')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('My locker at the gym is number 12.', 'gym locker number is 21')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
  });

  it('leaves alone another holder, another qualifier, another unit, a position, a past event and an added one', () => {
    expect(anotherValueOfOneThing('Our garden has two apple trees.', "My parents' garden has three apple trees.")).toBe(false);
    expect(anotherValueOfOneThing('My work phone ends in 1234.', 'My home phone ends in 5678.')).toBe(false);
    expect(anotherValueOfOneThing('Find me recipes under 400 calories.', 'Find me recipes under 30 minutes.')).toBe(false);
    expect(anotherValueOfOneThing('My train to Leeds is on the 3rd.', 'My return train from Leeds is on the 9th.')).toBe(false);
    expect(anotherValueOfOneThing('I climbed Ben Nevis in 2015.', 'I climbed Ben Nevis in 2019.')).toBe(false);
    // (a word on one side only is another thing or someone else's; a wish, a limit or a year of an event is not the value as it stands)
    expect(anotherValueOfOneThing('My phone number is 07700 900123.', 'my phone number at the office is 020 7946 0123')).toBe(false);
    expect(anotherValueOfOneThing('My phone number is 07700 900123.', 'my mum phone number is 07700 900456')).toBe(false);
    expect(anotherValueOfOneThing('I wear a size 42 shoe.', 'anna shoe size 38')).toBe(false);
    expect(anotherValueOfOneThing('I have 3 kids.', 'I want 4 kids.')).toBe(false);
    expect(anotherValueOfOneThing('I take 2 tablets of ibuprofen.', 'max dose is 6 tablets of ibuprofen')).toBe(false);
    expect(anotherValueOfOneThing('japan trip 2024', 'japan trip 2026')).toBe(false);
    // (how often against how many is read two ways, not another value)
    expect(anotherValueOfOneThing('We go on holiday twice a year.', 'we take 2 holidays a year')).toBe(false);
    expect(rel('I drink one coffee a day.', 'i drink coffee once a day').kind).toBe('compatible');
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
    // (without "I", only a clause opened by the mistake and its object: not a participle said by the way)
    expect(findCues('the form, misspelled as usual, says my birth year is 1958').map((c) => c.family)).not.toContain('wrong');
  });
});

describe('a day set aside without a comma', () => {
  it('gives the new day in place of the old one', () => {
    expect(findCues('yoga is thurs 6pm not weds')).toEqual(expect.arrayContaining([expect.objectContaining({ family: 'not-x', replaced: 'weds' })]));
    expect(rel('My yoga class is on Wednesday at 6 pm.', 'scratch that, yoga is thurs 6pm not weds')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });

  it('is no contrast after a word that is no value', () => {
    // (a word after "not" that is no day sets nothing aside)
    expect(findCues('gym is on fridays not weekends').some((c) => c.family === 'not-x')).toBe(false);
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
  it('names no one the statement is about, and is set aside', () => {
    expect(withoutToldBefore('noor has a kiwi allergy, I think I mentioned it before')).not.toMatch(/mentioned/);
    expect(withoutToldBefore("I've told you this already: no kiwi")).not.toMatch(/told/);
    expect(rel('My daughter Noor is allergic to kiwi.', 'noor, my girl, has a kiwi allergy, I think I mentioned it before').kind).toBe('compatible');
  });

  it('is no sign of a restatement (it may come with a change), and needs its time word', () => {
    expect(toldBefore("I've told you this before, steak well done for me")).toBe(false);
    expect(toldBefore('As I said, I am vegan.')).toBe(true);
    expect(withoutToldBefore('I said it was fine')).toBe('I said it was fine');
    expect(withoutToldBefore("I told you that I'm moving")).toBe("I told you that I'm moving");
  });
});

describe('one value said of things on one side only', () => {
  it('is not one fact said again when each side names someone the other does not', () => {
    expect(sameValueSameThings('i owe marek 30 pounds', 'Ines owes me 30 pounds.')).toBe(false);
    expect(sameValueSameThings('My yoga class costs 30 pounds.', 'yoga class: 30 pounds')).toBe(true);
    // (a side that names nothing but its value says it of whatever the other names)
    expect(sameValueSameThings('I earn £41,000 a year.', "My salary's 41k.")).toBe(true);
    // (a name said in the possessive is said)
    expect(sameValueSameThings("Tom's birthday party is on 12 June.", "party for tom's birthday: 12 june")).toBe(true);
  });
});

describe('a place named', () => {
  it('is nobody else: a note of the same flight at the same day and time is the person\'s own', () => {
    expect(ownAndUnsaid('My flight to Quito leaves at 9:15 in the evening on the 2nd of May.', 'quito flight departs 21:15, 2 may')).toBe(true);
    expect(ownAndUnsaid("My sister's flight to Quito leaves at 9:15 pm on 2 May.", 'quito flight departs 21:15, 2 may')).toBe(false);
  });
});
