/**
 * Issue 14: recognition that needs no hints. The exchanges are sent through GraphQL with
 * quote and type only (no entities, no themes): the server reads the sentences itself.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { actors } from '../helpers/memory.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

async function fresh(name: string) {
  const s = await t.space({ name });
  return actors(t.gql, s);
}

describe('corrections from the quote alone', () => {
  it('blue, then "Sorry, I meant orange — my favourite colour is orange.": blue SUPERSEDED, orange first in recall', async () => {
    const a = await fresh('colour');
    const blue = await a.state('My favourite colour is blue.', { type: 'PREFERENCE' }, '2026-05-01T10:00:00Z');
    expect(blue.outcome).toBe('CREATED');
    const orange = await a.state('Sorry, I meant orange — my favourite colour is orange.', { type: 'PREFERENCE' }, '2026-05-02T10:00:00Z');
    expect(orange.outcome).toBe('CORRECTED');
    expect(orange.superseded).toEqual({ id: blue.memory.id, status: 'SUPERSEDED' });
    const c = await a.open();
    const r = await a.recall(c, 'What is my favourite colour?');
    expect(r.statements[0].memory.id).toBe(orange.memory.id);
    expect(r.statements.map((h: any) => h.memory.id)).not.toContain(blue.memory.id);
  });

  it('"My brother Owen lives in Bristol." then "Owen moved to Leeds last month.": Bristol SUPERSEDED, Leeds first in recall', async () => {
    const a = await fresh('owen');
    const bristol = await a.state('My brother Owen lives in Bristol.', { type: 'FACT' }, '2026-05-01T10:00:00Z');
    expect(bristol.outcome).toBe('CREATED');
    const leeds = await a.state('Owen moved to Leeds last month.', { type: 'FACT' }, '2026-05-02T10:00:00Z');
    expect(leeds.outcome).toBe('CORRECTED');
    expect(leeds.superseded).toEqual({ id: bristol.memory.id, status: 'SUPERSEDED' });
    const c = await a.open();
    const r = await a.recall(c, 'Where does Owen live?');
    expect(r.statements[0].memory.id).toBe(leeds.memory.id);
  });

  it('a negation said by a prefix corrects, and another person\'s quoted words correct nothing (an adversarial probe\'s cases)', async () => {
    const a = await fresh('prefixes');
    const smoker = await a.state('I am a smoker.', { type: 'FACT' }, '2026-05-01T10:00:00Z');
    const non = await a.state('I am a non-smoker.', { type: 'FACT' }, '2026-05-02T10:00:00Z');
    expect(non.outcome).toBe('CORRECTED');
    expect(non.superseded).toEqual({ id: smoker.memory.id, status: 'SUPERSEDED' });
    const c = await a.open();
    const r = await a.recall(c, 'Do I smoke?');
    expect(r.statements.map((h: any) => h.memory.id)).not.toContain(smoker.memory.id);

    const cats = await a.state('I love cats.', { type: 'PREFERENCE' }, '2026-05-01T11:00:00Z');
    const said = await a.state('He said "I hate cats."', { type: 'PREFERENCE' }, '2026-05-02T11:00:00Z');
    expect(said.outcome).toBe('CREATED');
    expect((await a.memory(cats.memory.id)).status).toBe('ACTIVE');
  });

  it('a thing said to be in a new place corrects where it was; a pair of places that are one stays one memory', async () => {
    const a = await fresh('places');
    const garage = await a.state('The car is parked in the garage.', { type: 'FACT' }, '2026-05-01T10:00:00Z');
    const street = await a.state('The car is parked on the street.', { type: 'FACT' }, '2026-05-02T10:00:00Z');
    expect(street.outcome).toBe('CORRECTED');
    expect(street.superseded).toEqual({ id: garage.memory.id, status: 'SUPERSEDED' });
    const c = await a.open();
    const r = await a.recall(c, 'Where is the car?');
    expect(r.statements[0].memory.id).toBe(street.memory.id);
    expect(r.statements.map((h: any) => h.memory.id)).not.toContain(garage.memory.id);

    // "sofa" and "couch" are one thing (WordNet): not a move, so never a correction
    const sofa = await a.state('The remote is under the sofa.', { type: 'FACT' }, '2026-05-01T11:00:00Z');
    const couch = await a.state('The remote is under the couch.', { type: 'FACT' }, '2026-05-02T11:00:00Z');
    expect(couch.outcome).not.toBe('CORRECTED');
    expect((await a.memory(sofa.memory.id)).status).toBe('ACTIVE');
  });

  it('a correction said without a cue: the opposite of what it was, another preference, another kind of one thing', async () => {
    const a = await fresh('swaps');
    const pairs = [
      ['I sit at the front of the class.', 'I sit at the back of the class.'],
      ['I prefer green tea.', 'I prefer black tea.'],
      ['My front door is green.', 'My front door is purple.'],
    ] as const;
    for (const [i, [was, now]] of pairs.entries()) {
      const old = await a.state(was, { type: 'FACT' }, `2026-05-0${i + 1}T10:00:00Z`);
      const next = await a.state(now, { type: 'FACT' }, `2026-06-0${i + 1}T10:00:00Z`);
      expect(next.outcome, now).toBe('CORRECTED');
      expect(next.superseded, now).toEqual({ id: old.memory.id, status: 'SUPERSEDED' });
    }
    const c = await a.open();
    const r = await a.recall(c, 'What colour is my front door?');
    expect(r.statements[0].memory.quote).toBe('My front door is purple.');
    expect(r.statements.map((h: any) => h.memory.quote)).not.toContain('My front door is green.');
  });

  it('a relative\'s thing said without "my" is theirs: never merged into the person\'s own', async () => {
    const a = await fresh('owners');
    const mine = await a.state('My car is a blue Volvo.', { type: 'FACT' }, '2026-05-01T10:00:00Z');
    const dads = await a.state("Dad's car is a blue Volvo.", { type: 'FACT' }, '2026-05-02T10:00:00Z');
    expect(dads.outcome).toBe('CREATED');
    expect(dads.memory.id).not.toBe(mine.memory.id);
    expect(await a.memory(mine.memory.id)).toMatchObject({ status: 'ACTIVE', mentionCount: 1 });
  });

  it('someone else\'s fact, by name, "he" / "she" or "his", is never merged into the person\'s own', async () => {
    const a = await fresh('others');
    const pairs = [
      ['I need a gluten-free option whenever we book a table for dinner.', 'Maya needs a gluten-free option whenever we book a table for dinner.'],
      ["I can't eat sesame or peanuts.", "He can't eat sesame or peanuts."],
      ['I work night shifts at the hospital.', 'She works night shifts at the hospital.'],
      ['My car is a blue Volvo estate.', 'His car is a blue Volvo estate.'],
    ] as const;
    for (const [i, [mine, theirs]] of pairs.entries()) {
      const own = await a.state(mine, { type: 'FACT' }, `2026-05-0${i + 1}T10:00:00Z`);
      const other = await a.state(theirs, { type: 'FACT' }, `2026-05-0${i + 1}T11:00:00Z`);
      expect(other.outcome, theirs).toBe('CREATED');
      expect(await a.memory(own.memory.id), theirs).toMatchObject({ status: 'ACTIVE', mentionCount: 1 });
    }
  });

  it('a wish and its fulfilment, a state and its end, are two memories: the fact is recalled in its own words', async () => {
    const a = await fresh('modality');
    const want = await a.state('I want a dog.', { type: 'FACT' }, '2026-05-01T10:00:00Z');
    const have = await a.state('I have a dog.', { type: 'FACT' }, '2026-06-01T10:00:00Z');
    expect(have.outcome).toBe('CREATED');
    expect(await a.memory(want.memory.id)).toMatchObject({ status: 'ACTIVE', mentionCount: 1 });
    const c = await a.open();
    const r = await a.recall(c, 'Do I have a dog?');
    expect(r.statements.map((h: any) => h.memory.quote)).toContain('I have a dog.');

    const scared = await a.state('My son is scared of dogs.', { type: 'FACT' }, '2026-05-01T11:00:00Z');
    const over = await a.state('My son used to be scared of dogs.', { type: 'FACT' }, '2026-06-01T11:00:00Z');
    expect(over.outcome).not.toBe('REINFORCED');
    expect(over.memory.id).not.toBe(scared.memory.id);
  });

  it('derived entities are shown apart from the caller\'s', async () => {
    const a = await fresh('derived');
    const m = await a.state('My brother Owen lives in Bristol.', { type: 'FACT', entities: ['family member'] });
    const got = await a.memory(m.memory.id);
    expect(got.entities).toEqual(['family member']);
    expect(got.derivedEntities).toEqual(expect.arrayContaining(['Owen', 'Bristol', 'brother']));
    // themes read from WordNet: "brother" is filed under noun.person; the caller gave none
    expect(got.themes).toEqual([]);
    expect(got.derivedThemes).toContain('person');
  });
});

describe('a question about a kind of thing the person never named (docs/recall.md, "Cues")', () => {
  it('"What are my hobbies?" meets an activity said without the word; a singular category stays unanswered', async () => {
    const a = await fresh('hobbies');
    const birds = await a.state('I go swimming at the lido most weekends.', { type: 'FACT' });
    const rent = await a.state('My landlord raised the rent again.', { type: 'FACT' });
    expect([birds.outcome, rent.outcome]).toEqual(['CREATED', 'CREATED']);
    const c = await a.open();
    const r = await a.recall(c, 'What are my hobbies?');
    const ids = r.statements.map((h: any) => h.memory.id);
    expect(ids[0]).toBe(birds.memory.id);
    expect(ids).not.toContain(rent.memory.id);
    // one thing asked for ("my favorite hobby") must be said: no theme stands in for it
    const one = await a.recall(c, 'What is my favorite sport?');
    expect(one.statements.map((h: any) => h.memory.id)).not.toContain(rent.memory.id);
  }, 60_000);
});
