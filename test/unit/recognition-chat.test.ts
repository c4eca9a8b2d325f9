/**
 * Restatements as chat types them (forty-second round): a name in lower case, a plan said with
 * "I'm meeting", an aside ("fyi") and a role by another word ("boss" / "manager"). Scores are
 * under the topic score, over the recall floor, as USE-lite gave them.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { clauseRestates, decide, sharesPersonName, type Thresholds } from '../../src/core/recognition.js';
import { sameOccasion } from '../../src/core/meeting.js';
import type { MemoryType } from '../../src/core/types.js';
import { useWordNet } from '../helpers/lexicon.js';
import { candidate, incoming } from '../helpers/statements.js';

const T: Thresholds = { close: 0.875, related: 0.75, topic: 0.65, recallFloor: 0.4 };
const said = (text: string, type: MemoryType = 'FACT') => incoming(text, { type });
const stored = (text: string, score: number, type: MemoryType = 'FACT') => candidate(text, score, { type });

beforeAll(async () => {
  await useWordNet();
});

describe('one occasion, typed in chat', () => {
  it('a name typed in lower case is the name', () => {
    expect(sharesPersonName("I'm meeting Rafael for lunch on Friday at 12:30.", 'lunch w/ rafael fri, half past twelve')).toBe(true);
    expect(sharesPersonName('I work at Apple.', 'I ate an apple.')).toBe(false);
    // (nor chat's own words, read as names where a sentence opens; a name that opens one is still a name)
    expect(sharesPersonName('Gonna see the dentist on Friday at 3pm.', 'gonna grab lunch fri 3pm')).toBe(false);
    expect(sharesPersonName('Rafael and I have lunch on Friday.', 'lunch w/ rafael fri')).toBe(true);
  });

  it('"I\'m meeting" is a doing, not a thing of the occasion; the same lunch at the same time is one', () => {
    expect(sameOccasion("I'm meeting Rafael for lunch on Friday at 12:30.", 'lunch w/ rafael fri, half past twelve')).toBe(true);
    const d = decide(said('lunch w/ rafael fri, half past twelve', 'APPOINTMENT'), [stored("I'm meeting Rafael for lunch on Friday at 12:30.", 0.594, 'APPOINTMENT')], T);
    expect(d).toMatchObject({ action: 'reinforce', tier: 'RELATED' });
  });

  it('not another occasion at the same time, nor one at another time', () => {
    expect(sameOccasion("I'm meeting Rafael for lunch on Friday at 12:30.", 'dinner w/ rafael fri, half past twelve')).toBe(false);
    expect(sameOccasion("I'm meeting Rafael for lunch on Friday at 12:30.", 'lunch w/ rafael fri, 1pm')).toBe(false);
    // ("'s" before -ing is a possessive as often as "is": "Tom's wedding" is a thing)
    expect(sameOccasion("Tom's wedding is on 12 June.", 'The party is on 12 June.')).toBe(false);
  });
});

describe('a clause said again in chat', () => {
  it('leaves its asides out', () => {
    expect(clauseRestates('My son Arjun is allergic to peanuts.', 'fyi arjun has a peanut allergy')).toBe(true);
    expect(clauseRestates('My son Arjun is allergic to peanuts.', 'fyi arjun')).toBe(false);
  });

  it('reads a value the old memory gives too as said, however written, with a hedge on it', () => {
    expect(clauseRestates('Our dog Pepper weighs 12 kg.', 'pepper weighs roughly 26.5 lbs')).toBe(true);
    expect(clauseRestates('Our dog Pepper weighs 12 kg.', 'pepper weighs roughly 30 lbs')).toBe(false);
    expect(clauseRestates('Our dog Pepper weighs 12 kg.', 'pepper eats roughly 12 kg')).toBe(false);
    // (a clause of values alone restates nothing)
    expect(clauseRestates('Our dog Pepper weighs 12 kg.', 'Bought a new bag of kibble - roughly 26.5 lbs')).toBe(false);
    expect(clauseRestates('Our wedding anniversary is on 9 September.', 'Dentist appointment - Sept 9th')).toBe(false);
  });

  it('reads a role by its other word', () => {
    expect(clauseRestates('My manager at work is Daniela Ortiz.', 'daniela ortiz is my boss')).toBe(true);
    expect(clauseRestates('My manager at work is Daniela Ortiz.', 'daniela ortiz is my dentist')).toBe(false);
  });
});

describe('an occasion noted without "my", dated to the day and the minute', () => {
  const old = 'My dentist appointment is on 14 March at 3:30 pm.';
  it('is the person\'s own occasion told again', () => {
    expect(decide(said('dentist: 14 Mar, 15:30', 'APPOINTMENT'), [stored(old, 0.528, 'APPOINTMENT')], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED' });
  });
  it('not at another time, nor someone else\'s', () => {
    expect(decide(said('dentist: 14 Mar, 16:30', 'APPOINTMENT'), [stored(old, 0.528, 'APPOINTMENT')], T).action).not.toBe('reinforce');
    expect(decide(said("my son's dentist: 14 Mar, 15:30", 'APPOINTMENT'), [stored(old, 0.528, 'APPOINTMENT')], T).action).not.toBe('reinforce');
  });
});

describe('an age in "yrs"', () => {
  it('is the same age told again', () => {
    expect(decide(said("mochi's 6 yrs old fyi"), [stored('Our cat Mochi is six years old.', 0.577)], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED' });
    expect(decide(said("mochi's 7 yrs old fyi"), [stored('Our cat Mochi is six years old.', 0.577)], T).action).not.toBe('reinforce');
  });
});
