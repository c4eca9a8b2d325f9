/**
 * The forty-third round's rules: one thing given another value, mistakes owned in chat's words, a day set
 * aside without a comma, "twice daily", an earlier telling said of itself, one value said of things on one
 * side only, a place that is nobody. Each with the cases it must leave alone.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { findCues } from '../../src/core/correction-cues.js';
import { anotherValueOfOneThing } from '../../src/core/another-value.js';
import { relate } from '../../src/core/conflicts.js';
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

describe('the one thing at another time (forty-fifth round)', () => {
  it('corrects: a thing named as the one (the, my, our, a possessive), the same words at another time, day, date or part of the day', () => {
    expect(rel("The kids' dental check-up is on the 2nd of March.", "The children's dental check-up is on the 16th of March.")).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(rel('Our anniversary is on 12 June.', 'Our anniversary is on 21 June.')).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(anotherValueOfOneThing('The meeting with Ana is on Monday.', 'The meeting with Ana is on Thursday.')).toBe(true);
  });

  it('leaves alone a thing named as one of several, what the person does to a thing, other verbs, other things and past events', () => {
    expect(rel('I have a meeting with Ana on Monday.', 'I have a meeting with Ana on Thursday.').kind).toBe('distinct');
    expect(rel('I walk the dog in the morning.', 'I walk the dog in the evening.').kind).toBe('distinct');
    expect(anotherValueOfOneThing('My shift starts at 8.', 'My shift ends at 5.')).toBe(false);
    expect(anotherValueOfOneThing('The gym opens at 6am.', 'The gym closes at 10pm.')).toBe(false);
    expect(anotherValueOfOneThing("My son's football practice is on Tuesday.", "My son's football match is on Saturday.")).toBe(false);
    expect(anotherValueOfOneThing("My mum's birthday is on 3 March.", "My mum's birthday party is on 8 March.")).toBe(false);
    expect(anotherValueOfOneThing('My last check-up was on 2 March.', 'My last check-up was on 16 March.')).toBe(false);
    // (someone's habits: a person or an animal named first, however named; "she's" is "she is")
    expect(anotherValueOfOneThing('My son takes his inhaler in the morning.', 'My son takes his inhaler at bedtime.')).toBe(false);
    expect(anotherValueOfOneThing('The kids go to bed at 8.', 'The kids go to bed at 7:30.')).toBe(false);
    expect(anotherValueOfOneThing('The baby naps at 10am.', 'The baby naps at 2pm.')).toBe(false);
    expect(anotherValueOfOneThing("She's got ballet on Monday.", "She's got ballet on Wednesday.")).toBe(false);
  });
});

describe('values read whole (forty-fifth round)', () => {
  it('a number in words runs on past its scale word', () => {
    expect(kinds('We pay twelve hundred and fifty pounds in rent.')).toContain('quantity:1250');
    expect(kinds('It cost two thousand five hundred pounds.')).toContain('quantity:2500');
    expect(kinds('a thousand and one nights')).toEqual(['number:1001']);
    expect(kinds('ten thousand steps a day')).toContain('quantity:10000');
    expect(kinds('two million five hundred thousand')).toEqual(['number:2500000']);
    expect(kinds('two hundred and fifty thousand pounds')).toEqual(['quantity:250000']);
    expect(kinds('Our house cost £2.5 million.')).toEqual(['quantity:2500000']);
    // (not across punctuation: "two hundred, thirty of them lambs")
    expect(kinds('We have two hundred, thirty of them lambs.')).toEqual(['number:200', 'number:30']);
  });

  it('a brand written with a capital inside is a name, wherever it stands', () => {
    expect(kinds("Don't book me on easyJet.")).toEqual(['name:easyjet']);
    expect(kinds('iPhone is what I use.')).toEqual(['name:iphone']);
    // (a refusal naming another is another refusal, not the same one: it was "compatible", merged at a close score)
    expect(rel("Don't book me on Ryanair.", "Don't book me on easyJet.").kind).toBe('distinct');
  });

  it('bedtime is a part of the day: another time than 8am, the same as at night', () => {
    expect(kinds('I take my tablet at bedtime.')).toEqual(['daypart:night']);
    expect(rel('I take my blood pressure tablet at 8am.', 'I take my blood pressure tablet at bedtime.').kind).not.toBe('compatible');
    expect(rel('I take my tablet at night.', 'I take my tablet at bedtime.').kind).toBe('compatible');
  });
});

describe('an instruction asking for another way to answer (forty-fifth round)', () => {
  const said = (type: 'INSTRUCTION' | 'REMINDER', text: string) => ({ text, type, entities: [], themes: [] });
  it('another language, unit or tool to answer in corrects; whom or what else to act on, a place, a refusal or a reminder does not', () => {
    expect(relate(said('INSTRUCTION', 'Please reply to me in Spanish.'), said('INSTRUCTION', 'Please reply to me in Portuguese.'), true)).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(relate(said('INSTRUCTION', 'Use Celsius for temperatures.'), said('INSTRUCTION', 'Use Fahrenheit for temperatures.'), true)).toMatchObject({ kind: 'corrects' });
    expect(relate(said('INSTRUCTION', 'Add Tom to the Monday standup invite.'), said('INSTRUCTION', 'Add Sarah to the Monday standup invite.'), true).kind).not.toBe('corrects');
    expect(relate(said('INSTRUCTION', 'Send the weekly report to Ana.'), said('INSTRUCTION', 'Send the weekly report to Ben.'), true).kind).not.toBe('corrects');
    expect(relate(said('INSTRUCTION', 'Check the weather in London every morning.'), said('INSTRUCTION', 'Check the weather in Paris every morning.'), true).kind).not.toBe('corrects');
    expect(relate(said('INSTRUCTION', "Don't book me on Ryanair."), said('INSTRUCTION', "Don't book me on EasyJet."), true).kind).not.toBe('corrects');
    expect(relate(said('REMINDER', 'Remind me to call Anna on Sunday.'), said('REMINDER', 'Remind me to call Ben on Sunday.'), true).kind).toBe('distinct');
  });
});
