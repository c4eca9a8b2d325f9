/** src/core/recognition.ts decide(): tiers, precedence, and what is never merged. */
import { describe, expect, it } from 'vitest';
import { stance } from '../../src/core/polarity.js';
import { akinTypes, clauseRestates, decide, sharesEntityOrTheme, sharesName, withinReach, type Thresholds } from '../../src/core/recognition.js';
import { useWordNet } from '../helpers/lexicon.js';
import { candidate, incoming } from '../helpers/statements.js';

const T: Thresholds = { close: 0.875, related: 0.8, topic: 0.65, recallFloor: 0.4 };

describe('sharesName', () => {
  it('a capitalised name read in both texts, whole or in part, even where the tagger reads no entity', () => {
    expect(sharesName('I drive a Ford Focus.', 'I sold the Focus.')).toBe(true);
    expect(sharesName('I drive a Ford Focus.', 'I sold the car.')).toBe(false);
    expect(sharesName('My sister Ana lives in Porto.', 'I met Ana Silva today.')).toBe(true);
  });
  it('a one-word name typed in lower case on the other side, when WordNet knows no such word', async () => {
    await useWordNet();
    expect(sharesName('I pay for a Spotify Premium family plan.', 'cancelled spotify today')).toBe(true);
    expect(sharesName('I work at Apple.', 'I ate an apple.')).toBe(false);
  });
});

describe('decide: tiers', () => {
  it('EXACT: the same text after normalisation, whatever the score', () => {
    const c = candidate('I take the 7:15 train to work.', 0.2);
    const d = decide(incoming('i take the 7:15  train to work'), [c], T);
    expect(d).toMatchObject({ action: 'reinforce', targetId: c.id, tier: 'EXACT', score: 1 });
  });

  it('CLOSE: a score at or above the close threshold, same type', () => {
    const c = candidate('My sister lives in Oslo.', 0.875);
    expect(decide(incoming('My sister lives in Oslo, Norway.'), [c], T)).toMatchObject({ action: 'reinforce', targetId: c.id, tier: 'CLOSE', score: 0.875 });
  });

  it('RELATED: the middle band only with the same type and a shared entity or theme', () => {
    const text = 'My sister lives in Oslo with her dog.';
    const shared = candidate('My sister has lived in Oslo for years.', 0.82, { entities: ['Oslo'] });
    expect(decide(incoming(text, { entities: ['oslo'] }), [shared], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED', targetId: shared.id });
    const alone = candidate('My sister has lived in Oslo for years.', 0.82);
    expect(decide(incoming(text), [alone], T).action).toBe('create');
    const otherType = candidate('My sister has lived in Oslo for years.', 0.82, { entities: ['Oslo'], type: 'EVENT' });
    expect(decide(incoming(text, { entities: ['Oslo'] }), [otherType], T).action).toBe('create');
  });

  it('RELATED without hints: the same words pointing back at their first telling, or one count with and without its unit', () => {
    const married = candidate('I am married.', 0.853);
    expect(decide(incoming("I'm married, as I said."), [married], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED', targetId: married.id });
    expect(decide(incoming("I'm married, like I told you."), [married], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED' });
    expect(decide(incoming("I'm not married, as I said."), [married], T).action).not.toBe('reinforce');
    const age = candidate("I'm 42 years old.", 0.867);
    expect(decide(incoming("I'm 42."), [age], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED', targetId: age.id });
    expect(decide(incoming("I'm 43."), [age], T).action).not.toBe('reinforce');
  });

  it('RELATED without hints: one single-valued thing of the person given the same value in digits and in words', () => {
    // (USE-lite scores this pair 0.57: below the middle band, above the recall floor)
    const age = candidate("I'm 42.", 0.57);
    expect(decide(incoming("I'm forty-two."), [age], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED', targetId: age.id });
    expect(decide(incoming("I'm forty-three."), [age], T).action).not.toBe('reinforce');
    expect(decide(incoming('I am forty two.'), [age], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED' });
    // a bare number said of no such thing meets nothing
    expect(decide(incoming('Room forty-two.'), [candidate('Room 42.', 0.57)], T).action).toBe('create');
  });

  it('RELATED without hints: told again in other words, saying so, about the same thing and at one with it', async () => {
    await useWordNet();
    // (USE-lite scores this pair 0.87: just below CLOSE; the person says it is a restatement)
    const pen = candidate("I'm allergic to penicillin.", 0.87);
    const again = incoming("As I mentioned before, penicillin gives me an allergic reaction, so I can't take it.");
    expect(decide(again, [pen], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED', targetId: pen.id });
    // not without the pointer back, nor below the topic score, nor with what disagrees
    expect(decide(incoming("Penicillin gives me an allergic reaction, so I can't take it."), [pen], T).action).toBe('create');
    expect(decide(again, [candidate("I'm allergic to penicillin.", 0.6)], T).action).toBe('create');
    expect(decide(incoming('As I said, I have two dogs.'), [candidate('I have two cats.', 0.8)], T).action).toBe('create');
  });

  it('RELATED without hints: one value said of the same things, however written; not two things at one value', async () => {
    await useWordNet();
    const pay = candidate('I earn £52,000 a year.', 0.69);
    expect(decide(incoming("My salary's 52k."), [pay], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED', targetId: pay.id });
    expect(decide(incoming("My salary's 55k."), [pay], T).action).not.toBe('reinforce');
    const yoga = candidate('My yoga class is at 6pm on Tuesdays.', 0.66);
    expect(decide(incoming('My pottery class is at 6pm on Tuesdays.'), [yoga], T).action).toBe('create');
  });

  it('RELATED without hints: one number that names one thing only, given again in other words', async () => {
    await useWordNet();
    // (USE-lite scores such pairs about 0.6: under the topic score, over the recall floor)
    const card = candidate('My library card number is 4417 2290 118.', 0.6);
    expect(decide(incoming('Library card no. 44172290118, for the record'), [card], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED', targetId: card.id });
    expect(decide(incoming('Library card no. 44172290119, for the record'), [card], T).action).not.toBe('reinforce');
    // (someone else's is distinct, whatever the number)
    expect(decide(incoming("My son's library card number is 4417 2290 118."), [card], T).action).not.toBe('reinforce');
  });

  it('RELATED without hints: one occasion of the same person, however dated (a birth is a birthday, a marriage a wedding)', async () => {
    await useWordNet();
    const bday = candidate("My husband Tomasz's birthday is 14 August.", 0.5);
    expect(decide(incoming('Tomasz was born on August 14th.'), [bday], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED', targetId: bday.id });
    const mine = candidate('My birthday is on 2 June.', 0.6);
    expect(decide(incoming('I was born on the second of June.'), [mine], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED' });
    // (not another day, not another person, not another occasion on that day)
    expect(decide(incoming('Tomasz was born on August 15th.'), [bday], T).action).not.toBe('reinforce');
    expect(decide(incoming('My daughter was born on the second of June.'), [mine], T).action).not.toBe('reinforce');
    expect(decide(incoming("Tomasz's flight lands on August 14th."), [bday], T).action).not.toBe('reinforce');
  });

  it('RELATED without hints: the same name someone goes by, said again', async () => {
    await useWordNet();
    const nick = candidate('Everyone at work calls my manager Sunny.', 0.5);
    expect(decide(incoming("my manager goes by 'Sunny' with all of us"), [nick], T)).toMatchObject({ action: 'reinforce', tier: 'RELATED' });
    expect(decide(incoming("my manager goes by 'Sol' with all of us"), [nick], T).action).not.toBe('reinforce');
  });

  it('below the middle band nothing is reinforced', () => {
    expect(decide(incoming('I like hiking.', { themes: ['outdoors'] }), [candidate('I bought new boots.', 0.5, { themes: ['outdoors'] })], T).action).toBe('create');
  });

  it('the best tier wins, then the best score', () => {
    const related = candidate('My brother Owen lives in Bristol now.', 0.85, { entities: ['Owen'] });
    const close = candidate('My brother Owen lives in Bristol.', 0.9);
    const closer = candidate('My brother Owen lives in Bristol!', 0.95);
    const d = decide(incoming('My brother Owen lives in Bristol, England.', { entities: ['Owen'] }), [related, close, closer], T);
    expect(d).toMatchObject({ action: 'reinforce', tier: 'CLOSE', targetId: closer.id });
    const exact = candidate('My brother Owen lives in Bristol, England', 0.1);
    expect(decide(incoming('My brother Owen lives in Bristol, England.', { entities: ['Owen'] }), [closer, exact], T)).toMatchObject({ tier: 'EXACT', targetId: exact.id });
  });

  it('types stay apart: a CLOSE score of another type is not reinforced', () => {
    const event = candidate("I'm going to my brother's in Bristol on Saturday.", 0.95, { type: 'EVENT', entities: ['Owen'] });
    expect(decide(incoming("I'm going over to my brother's in Bristol on Saturday.", { type: 'FACT', entities: ['Owen'] }), [event], T).action).toBe('create');
    const pref = candidate('I love the sea.', 0.9, { type: 'PREFERENCE', themes: ['sea'] });
    expect(decide(incoming('I love the sea so much.', { type: 'MEMO', themes: ['sea'] }), [pref], T).action).toBe('create');
  });

  it('a correction crosses an akin pair of types only: an ending told as an event corrects a fact, never a wish', async () => {
    await useWordNet();
    const pays = candidate('I pay for Netflix.', 0.72);
    const told = incoming('Cancelled Netflix last night, not worth it.', { type: 'EVENT' });
    expect(decide(told, [pays], T)).toMatchObject({ action: 'correct', targetId: pays.id });
    // the same pair across a wall that is no akin pair: a new memory beside the old
    const task = candidate('I pay for Netflix.', 0.72, { type: 'TASK' });
    expect(decide(told, [task], T).action).toBe('create');
    // and a restatement across the pair is still no reinforcement
    const close = candidate('I cancelled Netflix last night.', 0.95);
    expect(decide(incoming('Cancelled Netflix last night.', { type: 'EVENT' }), [close], T).action).toBe('create');
    expect(akinTypes('FACT', 'EVENT') && akinTypes('INSTRUCTION', 'PREFERENCE')).toBe(true);
    expect(akinTypes('FACT', 'PREFERENCE') || akinTypes('APPOINTMENT', 'TASK') || akinTypes('FACT', 'INSTRUCTION')).toBe(false);
  });

  it('records every candidate considered, with its score and relation', () => {
    const a = candidate('I like tea.', 0.3);
    const b = candidate('I like green tea.', 0.9);
    const d = decide(incoming('I like green tea a lot.'), [a, b], T);
    expect(d.considered.map((c) => c.id)).toEqual([a.id, b.id]);
    expect(d.considered[1]).toMatchObject({ score: 0.9 });
  });
});

describe('decide: a correction is never merged, whatever the score', () => {
  it.each([
    ['My favorite color is blue.', 'Actually, my favorite color is orange, not blue.'],
    ['I like jazz.', "I don't like jazz."],
    ['The meeting with Ana is on Monday.', 'The meeting with Ana is on Thursday.'],
    ['I have two cats.', 'I have three cats.'],
  ])('"%s" then "%s"', (oldText, newText) => {
    for (const score of [0.999, 0.9, 0.8]) {
      const c = candidate(oldText, score, { themes: ['x'] });
      const d = decide(incoming(newText, { themes: ['x'] }), [c], T);
      expect(d.action, `score ${score}`).not.toBe('reinforce');
    }
  });

  it('with several candidates, the one the correction is about (best score) is superseded', () => {
    const blue = candidate('My favorite color is blue.', 0.82, { type: 'PREFERENCE' });
    const bright = candidate('I like bright colors.', 0.66, { type: 'PREFERENCE' });
    const season = candidate('My favorite season is autumn.', 0.29, { type: 'PREFERENCE' });
    const d = decide(incoming('Actually, my favorite color is orange, not blue.', { type: 'PREFERENCE' }), [bright, season, blue], T);
    expect(d).toMatchObject({ action: 'correct', targetId: blue.id, rule: 'explicit-cue', score: 0.82 });
  });

  it('a correction in the next sentence of the same message corrects the sentence before it', () => {
    const old = candidate('My anniversary is June 3.', 0.55, { messageId: 'm-new' });
    const d = decide(incoming('Actually, scratch that, it is June 13.', { previousSentence: 'My anniversary is June 3.', messageId: 'm-new' }), [old], T);
    expect(d).toMatchObject({ action: 'correct', targetId: old.id });
  });

  it('a multi-valued thing stays apart: I speak French / I speak Spanish', () => {
    const d = decide(incoming('I speak Spanish.', { themes: ['languages'] }), [candidate('I speak French.', 0.93, { themes: ['languages'] })], T);
    expect(d.action).toBe('create');
  });

  it('a value disagreement vetoes a CLOSE score: meeting with Ana on Monday vs Thursday', () => {
    const d = decide(incoming('Meeting with Ana on Thursday.', { type: 'APPOINTMENT' }), [candidate('Meeting with Ana on Monday.', 0.999, { type: 'APPOINTMENT' })], T);
    expect(d.action).not.toBe('reinforce');
  });

  it('a name disagreement vetoes a CLOSE score', () => {
    expect(decide(incoming('I met Hana in Lima.'), [candidate('I met Femi in Lima.', 0.95)], T).action).not.toBe('reinforce');
  });

  /*
   * KNOWN BUG, reported to the lead (remove `.fails` once fixed): found by
   * test/store/sealed-walls.test.ts, "Hana gave me a kite in Lima." was reinforced
   * into "Femi gave me a kite in Lima." (USE-lite score 0.882, tier CLOSE).
   * extractValues (src/core/values.ts) takes no sentence-initial capitalised word
   * for a name, so relate() (src/core/conflicts.ts) answers "compatible" and
   * decide() reinforces. Issue 2: a candidate is never reinforced when the two
   * disagree on a name.
   */
  it('a name disagreement vetoes a CLOSE score also when the name opens the sentence', () => {
    expect(decide(incoming('Hana gave me a kite in Lima.'), [candidate('Femi gave me a kite in Lima.', 0.95)], T).action).not.toBe('reinforce');
  });
});

describe('helpers', () => {
  it('sharesEntityOrTheme ignores case and spacing', () => {
    expect(sharesEntityOrTheme({ entities: [' Owen '], themes: [] }, { entities: ['owen'], themes: [] })).toBe(true);
    expect(sharesEntityOrTheme({ entities: [], themes: ['Family'] }, { entities: [], themes: ['family'] })).toBe(true);
    expect(sharesEntityOrTheme({ entities: ['Owen'], themes: ['family'] }, { entities: ['Bristol'], themes: ['work'] })).toBe(false);
  });

  it('a proper name meets a longer name it is part of, word for word, and its spelling without accents', () => {
    const e = (...entities: string[]) => ({ entities, themes: [] });
    expect(sharesEntityOrTheme(e('Leeds United'), e('Leeds'))).toBe(true);
    expect(sharesEntityOrTheme(e('Ana'), e('Ana Sousa'))).toBe(true);
    expect(sharesEntityOrTheme(e('Málaga'), e('Malaga'))).toBe(true);
    expect(sharesEntityOrTheme(e('New York'), e('New Zealand'))).toBe(false);
    expect(sharesEntityOrTheme(e('Leeds United'), e('United'))).toBe(true);
    // common nouns (a caller's lower-case entity) are compared whole
    expect(sharesEntityOrTheme(e('dog'), e('dog food'))).toBe(false);
  });

  it('clauseRestates: one clause of the new statement says the old one again', () => {
    expect(clauseRestates('My brother Owen lives in Bristol.', 'My brother lives in Bristol, he works in a lab.')).toBe(true);
    expect(clauseRestates('My brother Owen lives in Bristol.', 'My sister works in a lab.')).toBe(false);
    // a word said by its WordNet synonym is said
    expect(clauseRestates('Keep your answers short.', 'Keep your replies short.')).toBe(true);
    expect(clauseRestates('I like hiking.', 'I like swimming.')).toBe(false);
    // a clause's own stance may be asked of it: the other clause's negation is not the restating clause's
    const sameStance = (old: string) => (clause: string) => stance(clause) === stance(old);
    const lactose = "I'm lactose intolerant.";
    expect(clauseRestates(lactose, "Dairy doesn't agree with me — I'm lactose intolerant.", sameStance(lactose))).toBe(true);
    expect(clauseRestates(lactose, "I'm not lactose intolerant.", sameStance(lactose))).toBe(false);
  });
});

describe('meeting without hints (src/core/meeting.ts)', () => {
  it('an elaboration in the same or synonymous words, with the same stance', async () => {
    const { elaborates, sameValueSaid } = await import('../../src/core/meeting.js');
    expect(elaborates("I'm allergic to peanuts.", "I'm seriously allergic to peanuts, I carry an EpiPen.")).toBe(true);
    expect(elaborates('A surfer is falling off the wave', 'A surfer is riding the wave')).toBe(false);
    expect(elaborates('I like jazz.', "I don't like jazz at all.")).toBe(false);
    expect(sameValueSaid('Call me before 10am.', 'Any time before 10 in the morning.')).toBe(true);
    expect(sameValueSaid('Call me before 10am.', 'Call me before 11am.')).toBe(false);
    // an ordinal names one of a series, however written; a bare number counts anything and meets nothing
    expect(sameValueSaid('Our office is on the third floor.', 'We work on the 3rd floor.')).toBe(true);
    expect(sameValueSaid('Our office is on the third floor.', 'We work on the 5th floor.')).toBe(false);
    expect(sameValueSaid('I have 2 cats.', 'Room 2 is free.')).toBe(false);
  });
});

describe('decide: far candidates', () => {
  it('a candidate below every threshold is recorded as far, with its score, and no rule is named', () => {
    const far = candidate('My sister moved to Lisbon in 2019.', 0.12);
    const d = decide(incoming('My brother moved to Porto in 2020.'), [far], T);
    expect(d.action).toBe('create');
    expect(d.considered).toEqual([{ id: far.id, score: 0.12, relation: 'far' }]);
    // the same pair within reach runs the rules and names the one that keeps them apart
    const near = candidate('My sister moved to Lisbon in 2019.', 0.5);
    expect(decide(incoming('My brother moved to Porto in 2020.'), [near], T).considered[0]).toMatchObject({ relation: 'distinct' });
  });

  it('the sentence just before the quote is never far: a next-sentence correction at any score', () => {
    const old = candidate('My anniversary is June 3.', 0.05, { messageId: 'm-new' });
    const d = decide(incoming('Actually, scratch that, it is June 13.', { previousSentence: 'My anniversary is June 3.', messageId: 'm-new' }), [old], T);
    expect(d).toMatchObject({ action: 'correct', targetId: old.id, rule: 'next-sentence' });
    expect(withinReach({ normalized: 'x', previousSentence: 'My anniversary is June 3.' }, old, T)).toBe(true);
    expect(withinReach({ normalized: 'x', previousSentence: null }, old, T)).toBe(false);
  });

  it('far neighbours passed by id come last in what was considered, after the candidates read', () => {
    const close = candidate('I like green tea.', 0.9);
    const d = decide(incoming('I like green tea a lot.'), [close], T, [{ id: 'far-1', score: 0.2 }, { id: 'far-2', score: 0.1 }]);
    expect(d).toMatchObject({ action: 'reinforce', targetId: close.id, tier: 'CLOSE' });
    expect(d.considered.map((c) => [c.id, c.relation])).toEqual([[close.id, 'compatible'], ['far-1', 'far'], ['far-2', 'far']]);
  });
});
