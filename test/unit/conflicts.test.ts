import { describe, expect, it } from 'vitest';
import { polarity, relate, type StatementLike } from '../../src/core/conflicts.js';
import type { MemoryType } from '../../src/core/types.js';
import { compareValues } from '../../src/core/slots.js';
import { sameValue } from '../../src/core/values.js';
import { valueKinds as kinds } from '../helpers/statements.js';

const s = (text: string, opts: { type?: MemoryType; entities?: string[]; themes?: string[]; previousSentence?: string } = {}): StatementLike => ({
  text,
  type: opts.type ?? 'FACT',
  entities: opts.entities ?? [],
  themes: opts.themes ?? ['t'],
  previousSentence: opts.previousSentence ?? null,
});
const rel = (a: string, b: string, topical = true) => relate(s(a), s(b), topical);

describe('extractValues', () => {
  it('reads digits and number words alike', () => {
    expect(kinds('My daughter Mia is eight.')).toEqual(['name:mia', 'number:8']);
    expect(kinds('I have 3 kids.')).toEqual(['number:3']);
    expect(kinds('I have twenty-one goldfish.')).toEqual(['number:21']);
    expect(kinds('My favorite number is 1729.')).toEqual(['number:1729']);
  });
  it('reads clock times in several spellings', () => {
    expect(kinds('I take the 7:15 train.')).toEqual(['time:~7:15']);
    expect(kinds('No meetings before 10am.')).toEqual(['time:10:00']);
    expect(kinds('No meetings before 10 in the morning.')).toEqual(['time:10:00']);
    expect(kinds('Dinner is at 7 in the evening.')).toEqual(['time:19:00']);
    expect(kinds('The meeting is at 9.')).toEqual(['time:~9:00']);
    expect(kinds('It starts at 2:30pm.')).toEqual(['time:14:30']);
  });
  it('reads dates, days, months and years', () => {
    expect(kinds('Our anniversary is on June 13.')).toEqual(['date:06-13']);
    expect(kinds('Our anniversary is on the 13th of June.')).toEqual(['date:06-13']);
    expect(kinds('I play tennis on Tuesdays.')).toEqual(['day:tuesday']);
    expect(kinds('water the plants every sunday')).toEqual(['day:sunday']);
    expect(kinds('My membership renews in March.')).toEqual(['month:03']);
    expect(kinds('My passport expires in 2027.')).toEqual(['year:2027']);
  });
  it('reads money and measures as quantities', () => {
    expect(kinds('My rent went up to 1,020 pounds a month.')).toEqual(['quantity:1020']);
    expect(kinds('It costs $45.')).toEqual(['quantity:45']);
    expect(kinds('I weigh 82 kilos.')).toEqual(['quantity:82|kg']);
    expect(kinds('I run about 5k.')).toEqual(['quantity:5k']);
  });
  it('keeps a measure\'s unit, each spelling to one: the same count in another unit is another value', () => {
    expect(kinds('I weigh 82 kg.')).toEqual(['quantity:82|kg']);
    expect(kinds('I weigh 82 lbs.')).toEqual(['quantity:82|lb']);
    expect(sameValue('quantity', '82|kg', '82|kg')).toBe(true);
    expect(sameValue('quantity', '82|kg', '82|lb')).toBe(false);
    expect(sameValue('quantity', '30|minute', '30|hour')).toBe(false);
    // money, and a count said without a unit on one side, compare by the count
    expect(sameValue('quantity', '82', '82|kg')).toBe(true);
    expect(relate(s('I weigh 80 kg.'), s('I weigh 80 lb.'), true)).toMatchObject({ kind: 'corrects', rule: 'new-value' });
    expect(relate(s('I weigh 80 kg.'), s('I weigh 80 kilos.'), true).kind).toBe('compatible');
  });
  it('reads capitalised words as names, but not the first word of a sentence', () => {
    expect(kinds('My brother Owen lives in Bristol.')).toEqual(['name:owen', 'place:bristol']);
    expect(kinds('Owen is my brother.')).toEqual([]);
    expect(kinds('I drive a Tesla Model 3.')).toEqual(['name:tesla', 'name:model', 'number:3']);
  });
  it('ignores capitals in shouted text and the modal "may"', () => {
    expect(kinds('I PREFER TEA OVER COFFEE.')).toEqual([]);
    expect(kinds('May I ask you something?')).toEqual([]);
    expect(kinds('My appointment is on May 4.')).toEqual(['date:05-04']);
  });
});

describe('polarity', () => {
  it('a dislike said of the thing ("X is disgusting to me") says the dislike again: no polarity correction', () => {
    for (const [a, b] of [['I hate olives.', 'Olives are disgusting to me.'], ['I hate the heat.', 'The heat is unbearable.'], ["I can't stand beetroot.", 'Beetroot is vile.']]) {
      expect(rel(a!, b!).kind, `${a} / ${b}`).not.toBe('corrects');
    }
  });

  it.each([
    ["I don't eat pork.", 'negative'],
    ['I never eat pork.', 'negative'],
    ["I'm not allergic to penicillin.", 'negative'],
    ["I can't stand cilantro.", 'negative'],
    ['No meetings before 10, please.', 'negative'],
    ['I eat pork.', 'positive'],
    ['Call me Sam, not Samuel.', 'positive'],
    ['No wait, it starts at 8:45.', 'positive'],
    ['I hate coriander.', 'positive'],
  ])('%s is %s', (text, want) => {
    expect(polarity(text)).toBe(want);
  });
});

describe('relate: explicit-cue', () => {
  it('corrects when a cue comes with a difference', () => {
    expect(rel('My favorite color is blue.', 'Actually, my favorite color is orange, not blue.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My sister lives in Paris.', 'I was wrong earlier, my sister lives in Lyon, not Paris.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My bike is in the garage.', 'Scratch that, my bike is in the shed.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I live in Manchester.', 'I moved to Leeds last month.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I take vitamin D.', 'I stopped taking vitamin D.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });
  it('a weak cue with one stretch of the same words swapped is a change: "I drive to work." / "I cycle to work now."', () => {
    expect(rel('I drive to work.', 'I cycle to work now.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I live in a flat.', 'I live in a house now.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I take my tea with milk.', 'I take my tea black now.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // not a synonym, not another of a verb people have several of, not news about the same thing
    expect(rel('I live in a flat.', 'I live in an apartment now.').kind).not.toBe('corrects');
    expect(rel('I play tennis.', 'I play golf now.').kind).not.toBe('corrects');
    expect(rel('I go to the gym.', 'I go to the gym now, the new one on Main Street.').kind).not.toBe('corrects');
  });
  it('a repair opening the next sentence ("Sorry,", "Oops,") corrects a value there, even elliptical', () => {
    const next = (a: string, b: string) => relate(s(a), s(b, { previousSentence: a }), false);
    expect(next('My mum is 68.', "Sorry, she's 69.")).toMatchObject({ kind: 'corrects', rule: 'next-sentence' });
    expect(next('My mum is 68.', 'Oops, 69.')).toMatchObject({ kind: 'corrects', rule: 'next-sentence' });
    // an apology is no correction without a value in place of another, nor, in another message, a repair at all
    expect(next('My mum is 68.', "Sorry, I'm rambling.").kind).not.toBe('corrects');
    expect(rel('My daughter is seven.', 'Sorry, my daughter is sick today.').kind).not.toBe('corrects');
  });
  it('a state said to be over needs nothing else new: the cue is the change', () => {
    expect(rel('I have a cold.', 'I got over my cold.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // it ends a state held, not a past event
    expect(rel('I had knee surgery in March.', 'I recovered from my knee surgery.').kind).not.toBe('corrects');
    expect(rel('I got the flu shot last week.', 'I got over the flu last week.').kind).not.toBe('corrects');
  });
  it('a prefix said on both sides denies nothing: "My ex-husband is called Darren." / "Darren is my ex-husband."', () => {
    expect(rel('My ex-husband is called Darren.', 'Darren is my ex-husband.').kind).not.toBe('corrects');
    expect(rel('John is my husband.', 'John is my ex-husband.')).toMatchObject({ kind: 'corrects', rule: 'polarity' });
  });
  it('step-relations and an ex are roles; a role\'s own person is another person', () => {
    expect(rel('My stepbrother is a plumber.', "My stepbrother's son is a plumber.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('My ex lives in Bristol.', "My ex's new partner lives in Bristol.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('My stepbrother is a plumber.', 'My brother is a plumber.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
  });
  it('a change of state is told by its state: "got divorced" after "I\'m married" is fresh, "got married" is not', () => {
    expect(rel("I'm married to Chris.", 'Chris and I got divorced last year.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel("I'm married to Chris.", 'We got married in 2010.').kind).not.toBe('corrects');
    // one change said two ways is the same cue: no correction
    expect(rel('My dad passed away in 2019.', 'My father died in 2019.').kind).not.toBe('corrects');
  });
  it('a thing moved, pushed or brought to another time is a change: "I moved my Monday gym session to 7am."', () => {
    expect(rel('I have a gym session every Monday at 6am.', 'I moved my Monday gym session to 7am.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('Our holiday to Crete is in June.', "We've pushed the Crete holiday back to September.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
  });
  it('"X and I" makes the person a subject too', () => {
    expect(rel('My partner and I live in Leeds.', 'We moved to York.')).toMatchObject({ kind: 'corrects' });
    // a name's "X and I" names no subject here, as before: the name is the other's partner, not another person
    expect(rel('My girlfriend is Mia.', 'Mia and I split up.')).toMatchObject({ kind: 'corrects' });
  });
  it('a contrastive "not X" opening the sentence names the old value too', () => {
    expect(rel('My sister is called Emma.', "Not Emma, my sister's name is Hannah.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel("I'm fine.", "Not bad, I'm fine.").kind).toBe('compatible');
  });
  it('a state said to be over corrects it: got over, outgrown, grew out of, recovered from, cured of', () => {
    expect(rel("I'm afraid of flying.", 'I got over my fear of flying.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel("I'm allergic to eggs.", "I've outgrown my egg allergy.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My son is scared of the dark.', 'My son grew out of being scared of the dark.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I have asthma.', "I've been cured of my asthma.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('I have a bad back.', "I've recovered from my bad back.")).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    // said of something else, it speaks to nothing here
    expect(rel("I'm afraid of flying.", 'I got over the jet lag in a day.').kind).not.toBe('corrects');
  });
  it('does not correct a restatement that carries the cue word', () => {
    expect(rel("I'm vegetarian.", "Actually, I'm vegetarian.")).toEqual({ kind: 'compatible' });
    expect(rel('Call me Sam, not Samuel.', 'Call me Sam,  not Samuel')).toEqual({ kind: 'compatible' });
    expect(rel('I hate being called on the phone, text me instead.', 'Please text me rather than calling, I hate phone calls.')).toEqual({ kind: 'compatible' });
    expect(rel('Text me instead of calling.', 'Please text me instead of calling me.')).toEqual({ kind: 'compatible' });
  });
  it('counts a weak cue (now, new) only with a differing value', () => {
    expect(rel('I have two kids.', 'I have three kids now.')).toMatchObject({ kind: 'corrects', rule: 'explicit-cue' });
    expect(rel('My phone number ends in 4471.', 'My new phone number ends in 9012.')).toMatchObject({ kind: 'corrects' });
    expect(rel('I start work at 9.', 'I now start work at 10.')).toMatchObject({ kind: 'corrects' });
    expect(rel('I have two kids.', 'I have two kids now.')).toEqual({ kind: 'compatible' });
    expect(rel('I go to the gym.', 'I go to the gym now, the new one on Main Street.')).not.toMatchObject({ kind: 'corrects' });
  });
  it('never corrects when not topical', () => {
    expect(rel('My favorite color is blue.', 'Actually, my favorite color is orange.', false).kind).not.toBe('corrects');
  });
  it('an additive word turns a weak-cue change into a second value', () => {
    expect(rel('I speak French.', 'I also speak Spanish now.')).toMatchObject({ kind: 'distinct' });
  });
});

describe('relate: polarity', () => {
  it('corrects a negation of the same predicate', () => {
    expect(rel('I like jazz.', "I don't like jazz.")).toMatchObject({ kind: 'corrects', rule: 'polarity' });
    expect(rel("I'm allergic to penicillin.", "I'm not allergic to penicillin.")).toMatchObject({ kind: 'corrects', rule: 'polarity' });
    expect(rel('My favorite number is 1729.', 'My favorite number is not 1729.')).toMatchObject({ kind: 'corrects', rule: 'polarity' });
    expect(rel('I like olives.', 'I hate olives.')).toMatchObject({ kind: 'corrects', rule: 'polarity' });
  });
  it('keeps a negation about another object distinct', () => {
    expect(rel('I like jazz.', "I don't like country music.")).toMatchObject({ kind: 'distinct' });
    expect(rel('I like cats.', "I don't like dogs.")).toMatchObject({ kind: 'distinct' });
  });
  it('keeps a negation limited to a time distinct', () => {
    expect(rel('I drink coffee.', "I don't drink coffee after 4pm.")).toMatchObject({ kind: 'distinct', rule: 'polarity' });
  });
  it('two negative wordings are the same', () => {
    expect(rel("I don't eat pork.", 'I never eat pork.')).toEqual({ kind: 'compatible' });
    expect(rel("Don't schedule meetings for me before 10am.", 'No meetings before 10 in the morning, please.')).toEqual({ kind: 'compatible' });
    expect(rel("I can't stand cilantro.", 'I hate coriander, please leave it out.')).toEqual({ kind: 'compatible' });
  });
});

describe('relate: new-value', () => {
  it.each([
    ['I have two cats.', 'I have three cats.'],
    ['I live in Manchester.', 'I live in Leeds.'],
    ['My favourite colour is green.', 'My favorite color is purple.'],
    ['My manager is Rachel.', 'My manager is Dev.'],
    ['My dentist appointment is on May 4 at 10am.', 'My dentist appointment is on May 6 at 2pm.'],
    ['The yoga class is on Mondays at 6pm.', 'The yoga class is on Tuesdays at 6pm.'],
    ['I work at Acme.', 'I work at Globex.'],
    ['I weigh 82 kilos.', 'I weigh 79 kilos.'],
    ["I'm 34.", "I'm 35."],
    ['My rent is 950 pounds a month.', 'My rent is 1,100 pounds a month.'],
    ['Call me Samuel.', 'Call me Sam.'],
    ['My brother Owen lives in Bristol.', 'My brother Owen lives in Bath.'],
  ])('%s -> %s corrects', (a, b) => {
    expect(rel(a, b)).toMatchObject({ kind: 'corrects', rule: 'new-value' });
  });
  it('an equal value in other words is no new value', () => {
    expect(rel('I have three kids.', 'I have 3 kids.')).toEqual({ kind: 'compatible' });
    expect(rel('My daughter is eight.', 'My daughter is 8 years old.')).toEqual({ kind: 'compatible' });
    expect(rel('I start work at 9.', 'I start work at 9am.')).toEqual({ kind: 'compatible' });
    expect(rel("I'm 34 years old.", "I'm 34.")).toEqual({ kind: 'compatible' });
  });
});

describe('relate: next-sentence', () => {
  it('corrects the sentence just before, even when not topical', () => {
    const old = s('My anniversary is June 3.');
    const neu = s('Actually, scratch that, it is June 13.', { previousSentence: '  My anniversary  is June 3.' });
    expect(relate(old, neu, false)).toMatchObject({ kind: 'corrects', rule: 'next-sentence' });
  });
  it('needs a cue', () => {
    const old = s('My anniversary is June 3.');
    const neu = s('We met in Rome.', { previousSentence: 'My anniversary is June 3.' });
    expect(relate(old, neu, false).kind).not.toBe('corrects');
  });
  it('needs the previous sentence to be the old statement', () => {
    const old = s('My anniversary is June 3.');
    const neu = s('Actually, scratch that, it is June 13.', { previousSentence: 'My birthday is May 2.' });
    expect(relate(old, neu, false).kind).not.toBe('corrects');
  });
});

describe('relate: distinct', () => {
  it.each([
    ['I speak French.', 'I speak Spanish.', 'multi-valued'],
    ["I'm allergic to peanuts.", "I'm allergic to shellfish.", 'multi-valued'],
    ['I play tennis on Tuesdays.', 'I play squash on Thursdays.', 'multi-valued'],
    ['I take vitamin D every morning.', 'I take my blood pressure pills every morning.', 'multi-valued'],
    ['Remind me to pay the electricity bill.', 'Remind me to pay the water bill.', 'multi-valued'],
    ['I have a meeting with Ana on Monday.', 'I have a meeting with Ana on Thursday.', 'value-mismatch'],
    ['My flight to Rome is on Friday.', 'My flight to Oslo is on Monday.', 'value-mismatch'],
    ['My daughter Mia is eight.', 'My son Leo is eleven.', 'different-subject'],
    ["I'm vegetarian.", 'My husband is vegan.', 'different-subject'],
    ['My passport expires in 2027.', 'My driving licence expires in 2027.', 'different-thing'],
    ['My favorite film is Alien.', 'My favorite book is Dune.', 'different-thing'],
    ['I have two cats.', 'I have two kids.', 'different-thing'],
    ['My best friend Tom lives in Glasgow.', 'My best friend Tom is a pilot.', 'different-predicate'],
    // a value on each side, of different kinds, no number in common: another qualifier of the same frame
    ['Never schedule calls after 6pm.', 'Never schedule calls longer than 45 minutes.', 'value-mismatch'],
    ['Book the table for 4 people.', 'Book the table at 8pm.', 'value-mismatch'],
  ])('%s / %s', (a, b, rule) => {
    expect(rel(a, b)).toMatchObject({ kind: 'distinct', rule });
  });
  it('someone, and someone of theirs, are two people: "Tom" / "Tom\'s wife"', () => {
    expect(rel('Tom works at Google.', "Tom's wife has left Google.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('Sarah is allergic to nuts.', "Sarah's son is allergic to nuts.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('My brother Jack lives in Leeds.', "Jack's girlfriend moved to Leeds.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    // (or a group of theirs: the team left, not Tom; Tom leaving, named as typed, ends it)
    expect(rel('Tom works at Google.', "Tom's team left Google.")).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('Tom works at Google.', 'Tom left Google in May.')).toMatchObject({ kind: 'corrects' });
    // the same person said on both sides is not this rule: "Tom has left Google", "Sarah's son Leo"
    expect(rel('Tom works at Google.', 'Tom has left Google.')).toMatchObject({ kind: 'corrects' });
    expect(rel("Sarah's son is allergic to nuts.", "Sarah's son Leo is allergic to peanuts.")).not.toMatchObject({ rule: 'different-subject' });
  });
  it('a day or a date before "\'s" is a time, not someone: "Wednesday\'s dentist appointment"', () => {
    expect(rel('My dentist appointment is on Wednesday at 2pm.', "Wednesday's dentist appointment is at 3pm, not 2pm.")).toMatchObject({ kind: 'corrects' });
  });
  it('people are not values: kin said in place of kin are two people, not an opposite', () => {
    expect(rel('I have a brother.', 'I have a sister.').kind).not.toBe('corrects');
    expect(rel('I have two sisters.', 'I have one brother.').kind).not.toBe('corrects');
    // an opposite of a thing still is one: "north" / "south"
    expect(rel('The office is on the north side.', 'The office is on the south side now.')).toMatchObject({ kind: 'corrects' });
  });
  it('a different subject is never a correction, cue or not', () => {
    expect(rel('My brother Owen lives in Bristol.', 'My colleague Owen moved to Berlin.').kind).toBe('distinct');
    expect(rel("I'm vegetarian.", 'My husband is not vegetarian.').kind).toBe('distinct');
  });
  it('"we" says "I" too: not another subject', () => {
    expect(rel('I live in Manchester.', 'We live in Manchester.').kind).toBe('compatible');
    expect(rel('I live in Manchester.', 'We moved to Bristol.')).toMatchObject({ kind: 'corrects' });
    expect(rel('I have two kids.', 'We have three kids now.')).toMatchObject({ kind: 'corrects' });
    // someone else is still someone else
    expect(rel('My husband is vegan.', 'We are vegan.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
  });
  it('a role with what makes it another person is another person: in-law, ex-, former, half-, step-', () => {
    expect(rel('My brother lives in London.', 'My brother-in-law lives in London.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('My father-in-law is a retired pilot.', 'My father is a retired pilot.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('My husband is called Mark.', 'My ex-husband is called Mark.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('My boss is Sarah.', 'My former boss is Sarah.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    expect(rel('My brother is a plumber.', 'My half-brother is a plumber.')).toMatchObject({ kind: 'distinct', rule: 'different-subject' });
    // the same person however qualified: an old friend is a friend, a best friend too
    expect(rel('My friend Tom is a plumber.', 'My old friend Tom is a plumber.').kind).toBe('compatible');
    expect(rel('My best friend lives in Leeds.', 'My friend lives in Leeds.').kind).toBe('compatible');
    expect(rel('My brother-in-law lives in London.', 'My brother-in-law lives in London now.').kind).toBe('compatible');
  });
  it('a name WordNet knows whole is one value: "New York" says no "York", and its "New" is no cue', () => {
    expect(rel('I live in York.', 'I live in New York now.')).toMatchObject({ kind: 'corrects', detail: expect.stringContaining('"York" -> "New York"') });
    expect(rel("I've been to Guinea.", "I've been to Papua New Guinea.")).toMatchObject({ kind: 'distinct', rule: 'value-mismatch' });
    expect(rel('I live in New York.', 'New York is where I live.').kind).toBe('compatible');
    // a name WordNet does not know whole is still read a word at a time: a surname added is a detail
    expect(rel('My dentist is Dr Ana.', 'My dentist is Dr Ana Silva.').kind).toBe('compatible');
  });
  it('the same frame with another action is another fact, the verb known to the word list or not', () => {
    expect(rel('I go swimming on Mondays.', 'I go running on Mondays.')).toMatchObject({ kind: 'distinct', rule: 'other-action' });
    expect(rel('I walk the dog at 7am.', 'I feed the dog at 7am.')).toMatchObject({ kind: 'distinct', rule: 'other-action' });
    // the same action in other words is not another
    expect(rel('I live in Leeds.', 'I reside in Leeds.').kind).toBe('compatible');
    expect(rel('I adore jazz.', 'I love jazz.').kind).toBe('compatible');
  });
  it('opposites that may both hold are two facts, never a correction: to / from, before / after', () => {
    expect(rel('My flight to Rome is on Friday.', 'My flight from Rome is on Friday.')).toMatchObject({ kind: 'distinct', rule: 'opposite' });
    expect(rel('I take my medication before breakfast.', 'I take my medication after breakfast.')).toMatchObject({ kind: 'distinct', rule: 'opposite' });
    // those that cannot still correct
    expect(rel('I take my coffee with milk.', 'I take my coffee without milk.')).toMatchObject({ kind: 'corrects', rule: 'opposite' });
  });
  it('keeps disagreeing values distinct when not topical', () => {
    expect(rel("My mother's birthday is on October 2.", 'Remind me on October 1 to buy my mother a present.', false)).toMatchObject({ kind: 'distinct' });
  });
});

describe('compareValues on long lists', () => {
  it('finds the one value changed among 1,400, by an index (no pair weighed twice), as pairwise would', () => {
    const list = (swap: number | null) => `My numbers: ${Array.from({ length: 1400 }, (_, i) => String(i === swap ? 99_999 : 1000 + i)).join(', ')}.`;
    const d = compareValues(s(list(null)), s(list(700)));
    expect(d.dropped.map((v) => v.norm)).toEqual(['1700']);
    expect(d.added.map((v) => v.norm)).toEqual(['99999']);
    expect(d.disagree).toEqual(['number']);
    // read two ways: a time by its half day, a count bare and with its unit
    expect(compareValues(s('We meet at 7 every day.'), s('We meet at 7pm every day.')).disagree).toEqual([]);
    expect(compareValues(s("I'm 42."), s("I'm 42 years old.")).disagree).toEqual([]);
  });
});

describe('relate: values bound to their places', () => {
  it.each([
    ['Room 3 is on floor 7.', 'Room 7 is on floor 3.'],
    ['Writer 0 note 12: the red parcel number 12 went to Oslo.', 'Writer 12 note 0: the red parcel number 1200000 went to Oslo.'],
    ['My locker is 12 and my desk is 40.', 'My locker is 40 and my desk is 12.'],
    ['The meeting moved from 3pm to 5pm.', 'The meeting moved from 5pm to 3pm.'],
    ['I have three brothers and two sisters.', 'I have two brothers and three sisters.'],
  ])('the same words, a value swapped or moved: never compatible (%s / %s)', (a, b) => {
    // compared as sets, every value is found on the other side: the place is what differs
    expect(rel(a, b).kind).not.toBe('compatible');
    expect(rel(b, a).kind).not.toBe('compatible');
  });
  it.each([
    ['The meeting is at 9:00.', 'The meeting is at 9.'],
    ['My pin is seven and my desk is 40.', 'My pin is 7 and my desk is 40.'],
    ['Room 3 is on floor 7.', 'Room 3 is on floor 7.'],
  ])('the same values in other spellings stay compatible (%s / %s)', (a, b) => {
    expect(rel(a, b)).toEqual({ kind: 'compatible' });
  });
  it.each([
    ['We raised 1,200 pounds for the school.', 'We raised 1200 pounds for the school.'],
    // each number keeps its own noun: another order of the same bindings is not read as a value moved
    ['I have 2 kids and 3 cats.', 'I have 3 cats and 2 kids.'],
    ['On Monday the meeting is at 9.', 'The meeting is at 9 on Monday.'],
    // values of two kinds at one place (a number alone, a year) may be one value: not read as moved
    ["I was born in '89.", 'I was born in 1989.'],
  ])('values that keep their places find no disagreement (%s / %s)', (a, b) => {
    expect(compareValues(s(a), s(b)).disagree).toEqual([]);
  });
});

describe('relate: compatible', () => {
  it.each([
    ['My brother Owen lives in Bristol.', 'Owen, my brother, lives in Bristol near the harbour.'],
    ["I'm allergic to peanuts.", "I'm seriously allergic to peanuts, I carry an EpiPen."],
    ['I go running every morning.', 'I run every morning, usually about 5k.'],
    ['My mother lives in Lagos.', 'My mum lives in Lagos.'],
    ["I'm colour blind.", 'I am color-blind.'],
    ['Our wedding anniversary is on June 13.', 'June 13 is our wedding anniversary.'],
    ['My favorite band is Radiohead.', 'Radiohead is my favourite band.'],
    ['I prefer tea over coffee.', 'I PREFER TEA OVER COFFEE.'],
    ['Water the plants every Sunday.', 'water the plants every sunday'],
    ["My mum's birthday is on March 3.", "My mother's birthday is March 3."],
    ['My sister lives in Paris.', 'My sister is based in Paris.'],
    ['I love hiking in the Lake District.', 'Hiking in the Lake District is my favourite thing to do.'],
    ['I drink my coffee black.', 'I take my coffee black, no sugar.'],
    // one value read two ways (a bare hour and a time, a count at the start of a sentence and in its middle)
    ['I usually wake up around 7.', 'I normally get up at about 7am.'],
    ['Music is being performed by four people outdoors', 'Four people are performing music outdoors'],
  ])('%s / %s', (a, b) => {
    expect(rel(a, b)).toEqual({ kind: 'compatible' });
  });
  it('uses the entities to see a name that opens the sentence', () => {
    const old = s('My brother is called Owen.', { entities: ['Owen'] });
    const neu = s('Owen is my brother.', { entities: ['Owen'] });
    expect(relate(old, neu, true)).toEqual({ kind: 'compatible' });
  });
});
